"use client";

import { useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { discoverNicsAction } from "@/lib/inventory/actions/discover-nics";
import { Button, HintText, Notice } from "@/components/ui/ui";

/** Reads the host's NICs over SSH; says how many it found, or why it could not. */
export function DiscoverNicsButton({
  hostId,
  variant = "secondary",
}: {
  hostId: number;
  variant?: "primary" | "secondary";
}) {
  const [found, setFound] = useState<{ count: number; names: string[] } | null>(null);
  const { isPending, message: failure, submit } = useActionForm();
  const outcome =
    failure !== null ? { ok: false as const, message: failure } : found ? { ok: true as const, ...found } : null;

  function discover() {
    submit(() => discoverNicsAction({ hostId }), {
      onSuccess: (value) => setFound(value),
      onFailure: () => setFound(null),
    });
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="button" variant={variant} onClick={discover} isPending={isPending} pendingLabel="Discovering…">
        Discover NICs
      </Button>
      <div aria-live="polite" className="min-w-0">
        {outcome?.ok ? (
          <Notice tone="success" testId="discover-result">
            Found {outcome.count === 1 ? "1 NIC" : `${outcome.count} NICs`}
            {outcome.count > 0 ? `: ${outcome.names.join(", ")}` : ""}.
          </Notice>
        ) : null}
        {outcome && !outcome.ok ? (
          <Notice tone="error" title="NIC discovery failed" testId="discover-result">
            <HintText text={outcome.message} />
          </Notice>
        ) : null}
      </div>
    </div>
  );
}
