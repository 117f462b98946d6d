import { PageSkeleton } from "@/components/runs/PageSkeleton";

export default function Loading() {
  return <PageSkeleton label="Loading this experiment…" />;
}
