"use client";

import { Button, Notice } from "@/components/ui/ui";

// A failed read (database gone, a bug) shows what happened and a way to try again, not a blank page.
export default function HostsError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="max-w-2xl space-y-4">
      <Notice tone="error" title="This page could not be loaded">
        {error.digest ? `The server logged the error (${error.digest}).` : error.message}
      </Notice>
      <Button type="button" variant="primary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
