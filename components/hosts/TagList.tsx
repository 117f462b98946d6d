import Link from "next/link";
import { FOCUS_RING } from "@/components/ui/styles";

/** A host's tags, each a link to the grid of the hosts that carry it; "none" without any. */
export function TagList({ tags, testId }: { tags: readonly string[]; testId?: string }) {
  if (tags.length === 0) return <span className="text-slate-600 dark:text-slate-400">none</span>;
  return (
    <ul className="flex flex-wrap gap-1" data-testid={testId} aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            href={`/grid?tag=${encodeURIComponent(tag)}`}
            className={`inline-block rounded-full bg-slate-100 px-2 py-0.5 font-mono text-xs font-normal text-slate-800 underline decoration-slate-400 underline-offset-2 hover:decoration-current dark:bg-slate-800 dark:text-slate-100 ${FOCUS_RING}`}
          >
            {tag}
            <span className="sr-only">: grid of the hosts tagged {tag}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
