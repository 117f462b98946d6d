"use client";

import { PageError } from "@/components/runs/PageError";

export default function ErrorBoundary({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError error={error} reset={reset} what="this experiment" />;
}
