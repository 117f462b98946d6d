"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { alertQueryKeys, FIRING_ALERTS_PATH } from "@/components/alerts/queries";
import { fetchApi, IDLE_REFETCH_MS } from "@/components/queries";
import type { AlertListPage } from "@/lib/alerts/contract";

const NAV_ITEMS = [
  { href: "/", label: "Overview" },
  { href: "/hosts", label: "Hosts" },
  { href: "/links", label: "Links" },
  { href: "/grid", label: "Grid" },
  { href: "/runs", label: "Runs" },
  { href: "/experiments", label: "Experiments" },
  { href: "/schedules", label: "Schedules" },
  { href: "/alerts", label: "Alerts" },
] as const;

const ADMIN_ITEMS = [
  { href: "/users", label: "Users" },
  { href: "/audit", label: "Audit" },
] as const;

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

/** How many alerts are firing, asked of the API as other views ask when idle; null until known or when it failed. */
function useFiringAlertCount(): number | null {
  const result = useQuery({
    queryKey: alertQueryKeys.firing(),
    queryFn: ({ signal }) => fetchApi<AlertListPage>(FIRING_ALERTS_PATH, { signal }),
    refetchInterval: IDLE_REFETCH_MS,
  });
  return result.data ? result.data.total : null;
}

const SHARE_ITEMS = [{ href: "/shares", label: "Shares" }] as const;

export function NavLinks({ isAdmin = false, canShare = false }: { isAdmin?: boolean; canShare?: boolean }) {
  const pathname = usePathname();
  const firing = useFiringAlertCount();
  return (
    <ul className="flex flex-wrap gap-1 text-sm">
      {[...NAV_ITEMS, ...(canShare ? SHARE_ITEMS : []), ...(isAdmin ? ADMIN_ITEMS : [])].map((item) => {
        const active = isActive(pathname, item.href);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={`rounded-md px-3 py-2 font-medium outline-none focus-visible:ring-2 focus-visible:ring-sky-500 ${
                active
                  ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
                  : "text-slate-600 hover:bg-slate-200 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
              }`}
            >
              {item.label}
              {item.href === "/alerts" && firing ? (
                <span
                  className="ml-1.5 rounded-full bg-red-700 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums dark:bg-red-500 dark:text-slate-950"
                  data-testid="nav-firing-alerts"
                >
                  {firing}
                  <span className="sr-only"> firing</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
