"use client";

import { useEffect, useState } from "react";
import { CopyButton } from "./CopyButton";

export type ListenPanelProps = {
  deviceName: string;
  address: string;
  port: number;
  /** `iperf3 -c ADDRESS -p PORT` */
  command: string;
  /** ISO time the server stops waiting */
  expiresAt: string;
  /** the QR code of `ADDRESS:PORT` as an SVG document, made on the server (qrcode) */
  qrSvg: string;
};

function secondsLeft(expiresAt: string): number {
  return Math.max(0, Math.round((Date.parse(expiresAt) - Date.now()) / 1000));
}

function clock(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Said to a screen reader once a minute, and every 10 s in the last minute: not every second. */
function spokenLeft(seconds: number): string {
  if (seconds === 0) return "Time is up.";
  if (seconds < 60) return `${Math.ceil(seconds / 10) * 10} seconds left.`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"} left.`;
}

/**
 * A device's run while Wirespeed listens: where to point the device's iperf3 (large, for reading
 * across a room), the command line, the two fields phone apps ask for, a QR code of ADDRESS:PORT
 * and the time left.
 */
export function ListenPanel({ deviceName, address, port, command, expiresAt, qrSvg }: ListenPanelProps) {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setLeft(secondsLeft(expiresAt));
    update();
    const timer = setInterval(update, 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  const endpoint = `${address}:${port}`;
  const fieldClass = "rounded-md border border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-950";

  return (
    <section
      aria-labelledby="listen-heading"
      data-testid="listen-panel"
      className="mb-6 rounded-lg border-2 border-sky-600 bg-white p-4 dark:border-sky-400 dark:bg-slate-900"
    >
      <h2 id="listen-heading" className="text-lg font-semibold">
        Waiting for {deviceName} to connect
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Run iperf3 as a client on the device, against this address and port. Add <code>-R</code> to have this end send
        instead.
      </p>

      <div className="mt-4 flex flex-col gap-6 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1 space-y-4">
          <p
            className="font-mono text-3xl font-bold tracking-tight break-all sm:text-4xl"
            data-testid="listen-endpoint"
            aria-label={`Address ${address}, port ${port}`}
          >
            {address}
            <span className="text-slate-500 dark:text-slate-400">:</span>
            {port}
          </p>

          <div>
            <h3 className="text-sm font-semibold">Command line</h3>
            <div className="mt-1 flex items-center gap-2">
              {/* Wrapped at its spaces: a port split over two lines is misread when typed on a phone. */}
              <code
                className={`${fieldClass} min-w-0 flex-1 font-mono text-sm break-words`}
                data-testid="listen-command"
              >
                {command}
              </code>
              <CopyButton text={command} label="Copy the iperf3 command" />
            </div>
          </div>

          <div>
            <h3 className="text-sm font-semibold">In a phone&apos;s iperf3 app</h3>
            <dl className="mt-1 grid grid-cols-[auto_1fr_auto] items-center gap-x-3 gap-y-2 text-sm">
              <dt className="font-medium">Server address</dt>
              <dd className={`${fieldClass} font-mono`} data-testid="listen-address">
                {address}
              </dd>
              <dd>
                <CopyButton text={address} label="Copy the server address" />
              </dd>
              <dt className="font-medium">Port</dt>
              <dd className={`${fieldClass} font-mono`} data-testid="listen-port">
                {port}
              </dd>
              <dd>
                <CopyButton text={String(port)} label="Copy the port" />
              </dd>
            </dl>
          </div>

          <p className="text-sm" data-testid="listen-countdown">
            <span className="font-semibold">Time left: </span>
            <span className="font-mono tabular-nums" aria-hidden="true">
              {left === null ? "…" : clock(left)}
            </span>
            <span className="sr-only" aria-live="polite">
              {left === null ? "" : spokenLeft(left)}
            </span>
            <span className="text-slate-600 dark:text-slate-400">
              {" "}
              (until {new Date(expiresAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}; nobody
              connected by then ends the run as failed: no client)
            </span>
          </p>
        </div>

        <figure className="shrink-0 self-center sm:self-start">
          {/* White behind the code in either theme: scanners want dark modules on light. */}
          <div
            role="img"
            aria-label={`QR code of ${endpoint}`}
            className="h-44 w-44 rounded-md bg-white p-2"
            data-testid="listen-qr"
            dangerouslySetInnerHTML={{ __html: qrSvg }}
          />
          <figcaption className="mt-1 text-center text-xs text-slate-600 dark:text-slate-400">
            Scan: <span className="font-mono">{endpoint}</span>
          </figcaption>
        </figure>
      </div>
    </section>
  );
}

/** A device's run that came from another address than its NIC's: said in words, with a warning mark. */
export function PeerAddressNote({ warning }: { warning: string }) {
  return (
    <p
      role="note"
      data-testid="peer-warning"
      className="mb-6 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-100"
    >
      <span className="font-semibold">Warning: </span>
      {warning}
    </p>
  );
}
