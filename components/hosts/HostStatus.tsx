import { RelativeTime } from "@/components/ui/RelativeTime";

type HostStatusInput = {
  /** "ssh" when left out: only such a host is logged in to, checked and seen. */
  access?: string;
  isLocal: boolean;
  hostKeyFingerprint: string | null;
  lastSeenAt: Date | null;
  iperf3Version: string | null;
};

const BADGE = "inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium";
const TONES = {
  ok: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  warn: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  idle: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
} as const;

/**
 * Where a host stands: key not confirmed, never reached, or reached (and whether iperf3 is there); a host
 * Wirespeed does not log in to has no key and is never checked.
 */
export function hostReachability(host: HostStatusInput): { label: string; tone: keyof typeof TONES } {
  if (host.access !== undefined && host.access !== "ssh") return { label: "No login", tone: "idle" };
  if (!host.isLocal && !host.hostKeyFingerprint) return { label: "Key not confirmed", tone: "warn" };
  if (!host.lastSeenAt) return { label: "Not checked yet", tone: "idle" };
  if (!host.iperf3Version) return { label: "No iperf3", tone: "warn" };
  return { label: host.isLocal ? "This machine" : "Reachable", tone: "ok" };
}

export function HostStatusBadge({ host }: { host: HostStatusInput }) {
  const { label, tone } = hostReachability(host);
  return (
    <span className={`${BADGE} ${TONES[tone]}`} data-testid="host-status">
      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-current" />
      {label}
    </span>
  );
}

export function LastSeen({ date }: { date: Date | null }) {
  return <RelativeTime date={date} fallback="never" />;
}
