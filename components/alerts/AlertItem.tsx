import Link from "next/link";
import { TEXT_LINK } from "@/components/ui/styles";
import { LocalTime } from "@/components/units/LocalTime";
import type { AlertJson } from "@/lib/alerts/contract";
import { AcknowledgeButton } from "./AcknowledgeButton";
import { describeDelivery } from "./channel-fields";

// No "use client": the alerts page and a link page render it on the server.

/** The runs of an alert as links: "runs #12, #14". */
export function RunLinks({ runIds, label }: { runIds: number[]; label: string }) {
  if (runIds.length === 0) return null;
  return (
    <span data-testid="alert-runs">
      {label}{" "}
      {runIds.map((id, index) => (
        <span key={id}>
          {index > 0 ? ", " : null}
          <Link href={`/runs/${id}`} className={`font-medium ${TEXT_LINK}`}>
            #{id}
          </Link>
        </span>
      ))}
    </span>
  );
}

/** Firing (red) or resolved, in words beside the colour. */
export function AlertStatusBadge({ status }: { status: AlertJson["status"] }) {
  return (
    <span
      data-testid="alert-status"
      data-status={status}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${
        status === "firing"
          ? "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800"
          : "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600"
      }`}
    >
      {status === "firing" ? "Firing" : "Resolved"}
    </span>
  );
}

/**
 * One alert: its title and body, its link and rule, the runs that triggered it (and those that
 * ended it), when it opened, was acknowledged and resolved, and where its notifications went.
 * A firing alert not acknowledged yet has the Acknowledge button (operators).
 */
export function AlertItem({ alert, showLink = true }: { alert: AlertJson; showLink?: boolean }) {
  const isFiring = alert.status === "firing";
  return (
    <article
      aria-labelledby={`alert-${alert.id}-title`}
      data-testid="alert"
      data-alert-id={alert.id}
      data-status={alert.status}
      className={
        "rounded-lg border bg-white p-4 text-sm dark:bg-slate-900 " +
        (isFiring ? "border-red-300 dark:border-red-800" : "border-slate-200 dark:border-slate-800")
      }
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <h3
          id={`alert-${alert.id}-title`}
          className="flex min-w-0 flex-wrap items-center gap-2 font-semibold break-words"
        >
          <AlertStatusBadge status={alert.status} />
          {alert.title}
        </h3>
        {isFiring && !alert.acknowledgedAt ? <AcknowledgeButton alertId={alert.id} title={alert.title} /> : null}
      </header>
      <p className="mt-1 break-words" data-testid="alert-body">
        {alert.body}
      </p>
      <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-slate-700 dark:text-slate-300">
        {showLink ? (
          <span>
            Link{" "}
            <Link href={`/links/${alert.link.id}`} className={`font-medium ${TEXT_LINK}`}>
              {alert.link.name}
            </Link>
          </span>
        ) : null}
        <span>
          Rule{" "}
          <Link href="/alerts/rules" className={`font-medium ${TEXT_LINK}`}>
            {alert.rule.name}
          </Link>
        </span>
        <RunLinks runIds={alert.runIds} label="triggered by runs" />
        <RunLinks runIds={alert.resolvedRunIds} label="ended by runs" />
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Opened <LocalTime iso={alert.openedAt} />
        {alert.acknowledgedAt ? (
          <span data-testid="alert-acknowledged">
            {" · acknowledged "}
            <LocalTime iso={alert.acknowledgedAt} isRelativeOnly />
            {alert.acknowledgedBy ? ` by ${alert.acknowledgedBy}` : ""}
          </span>
        ) : null}
        {alert.resolvedAt ? (
          <>
            {" · resolved "}
            <LocalTime iso={alert.resolvedAt} isRelativeOnly />
          </>
        ) : null}
      </p>
      {alert.notifications.length > 0 ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-xs font-medium text-slate-700 dark:text-slate-300">
            Notifications ({alert.notifications.length}
            {alert.notifications.some((notification) => notification.status === "failed") ? ", some failed" : ""})
          </summary>
          <ul className="mt-1 space-y-0.5 text-xs">
            {alert.notifications.map((notification, index) => (
              <li
                key={index}
                className={notification.status === "failed" ? "text-red-700 dark:text-red-300" : undefined}
              >
                {notification.event} to {notification.channelName}: {describeDelivery(notification)} ·{" "}
                <LocalTime iso={notification.at} isRelativeOnly />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </article>
  );
}

/** Alerts one under the other. */
export function AlertList({
  alerts,
  showLink = true,
  testId,
}: {
  alerts: AlertJson[];
  showLink?: boolean;
  testId?: string;
}) {
  return (
    <div className="space-y-3" data-testid={testId}>
      {alerts.map((alert) => (
        <AlertItem key={alert.id} alert={alert} showLink={showLink} />
      ))}
    </div>
  );
}
