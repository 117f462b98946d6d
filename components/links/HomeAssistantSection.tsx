"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCan } from "@/components/auth/ViewerContext";
import { useActionForm } from "@/components/forms/use-action-form";
import { PageSection } from "@/components/PageSection";
import { CheckboxField } from "@/components/ui/ui";
import { setHomeAssistantButtonAction } from "@/lib/inventory/actions/set-home-assistant-button";

const NOTE = "text-sm text-slate-600 dark:text-slate-400";

/**
 * The link in Home Assistant: whether its "Run again" button may start the link's last test (saved as
 * soon as it is ticked), and whether Wirespeed publishes to a broker at all. Text for those who cannot change links.
 */
export function HomeAssistantSection({
  linkId,
  isOn,
  isPublishing,
}: {
  linkId: number;
  isOn: boolean;
  /** WIRESPEED_MQTT_URL is set: the link is a device in Home Assistant. */
  isPublishing: boolean;
}) {
  const router = useRouter();
  const mayChange = useCan("inventory");
  const form = useActionForm();
  // What was just ticked, shown at once while it is saved; back to the stored state if it is refused.
  const [ticked, setTicked] = useState<boolean | null>(null);
  const error = form.fieldErrors.homeAssistantRunButton ?? form.message ?? undefined;
  const where = isPublishing
    ? "This link is a device in Home Assistant: its received rate, share of line rate, loaded latency, last run and whether an alert fires."
    : "Wirespeed publishes to Home Assistant once WIRESPEED_MQTT_URL names your MQTT broker (see the README).";
  const state = isOn
    ? "Home Assistant's Run again button starts this link's last test."
    : "Home Assistant's Run again button does nothing for this link.";
  return (
    <PageSection
      name="home-assistant"
      id="home-assistant"
      title="Home Assistant"
      headingClassName="mb-1"
      className="mb-8"
      testId="link-home-assistant"
    >
      <p className={`mb-3 ${NOTE}`}>{where}</p>
      {mayChange ? (
        <CheckboxField
          label="Let Home Assistant's Run again button start this link's last test"
          hint="Anyone who can publish to the broker's wirespeed/link/… topics can press it: turn it on for links where a test any time is fine."
          checked={ticked ?? isOn}
          error={error}
          onChange={(checked) => {
            setTicked(checked);
            form.submit(() => setHomeAssistantButtonAction({ linkId, homeAssistantRunButton: checked }), {
              onSuccess: () => router.refresh(),
              onFailure: () => setTicked(null),
            });
          }}
        />
      ) : (
        <p className={NOTE}>{state}</p>
      )}
    </PageSection>
  );
}
