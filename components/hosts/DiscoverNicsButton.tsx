"use client";

import { useState, useTransition } from "react";
import { discoverNicsAction } from "@/lib/actions/discover-nics";
import { Button, HintText, Notice } from "@/components/ui/ui";

/** Reads the host's NICs over SSH; says how many it found, or why it could not. */
export function DiscoverNicsButton({
  hostId,
  variant = "secondary",
}: {
  hostId: number;
  variant?: "primary" | "secondary";
}) {
  const [outcome, setOutcome] = useState<
    { ok: true; count: number; names: string[] } | { ok: false; message: string } | null
  >(null);
  const [isPending, startTransition] = useTransition();

  function discover() {
    startTransition(async () => {
      const result = await discoverNicsAction({ hostId });
      setOutcome(result.ok ? { ok: true, ...result.value } : { ok: false, message: result.message });
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
