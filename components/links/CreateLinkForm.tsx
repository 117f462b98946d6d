"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { unplacedErrors, useActionForm } from "@/components/forms/use-action-form";

import { formatLinkSpeedCompact } from "@/lib/format";
import { Button, buttonClass, Notice, SelectField, TextAreaField, TextField } from "@/components/ui/ui";
import { createLinkAction } from "@/lib/inventory/actions/create-link";
import type { LinkableNic } from "@/lib/runs/link-reads";
import { MtuMismatchBadge } from "./LinkList";
import { defaultLinkSpeed, sharedSubnetOf, suggestPairs } from "./subnet";

const PLACED_FIELDS = ["name", "aNicId", "bNicId", "speedMbps", "notes"];

function nicLabel(nic: LinkableNic): string {
  const facts = [
    nic.addresses[0],
    nic.speedMbps !== null ? formatLinkSpeedCompact(nic.speedMbps) : null,
    nic.mtu !== null ? `MTU ${nic.mtu}` : null,
  ].filter(Boolean);
  return `${nic.name}${facts.length ? ` (${facts.join(", ")})` : ""}`;
}

// Names allow letters, digits, spaces and . _ - ( ) + : @ (lib/inventory/schemas.ts).
function suggestedName(a: LinkableNic, b: LinkableNic): string {
  return `${a.host.name}:${a.name}-${b.host.name}:${b.name}`.slice(0, 64);
}

/**
 * A NIC on each host: pairs in the same subnet are suggested first; the speed starts at the
 * slower NIC's; an MTU mismatch between the two is flagged before the link is created.
 */
export function CreateLinkForm({ nics }: { nics: LinkableNic[] }) {
  const router = useRouter();
  const hosts = useMemo(() => [...new Map(nics.map((nic) => [nic.host.id, nic.host])).values()], [nics]);
  const suggestions = useMemo(() => suggestPairs(nics), [nics]);
  const [aNicId, setANicId] = useState("");
  const [bNicId, setBNicId] = useState("");
  const [aHostId, setAHostId] = useState("");
  const [bHostId, setBHostId] = useState("");
  const [name, setName] = useState("");
  const [isNameEdited, setIsNameEdited] = useState(false);
  const [speed, setSpeed] = useState("");
  const [isSpeedEdited, setIsSpeedEdited] = useState(false);
  const [notes, setNotes] = useState("");
  const { isPending, message, errors, fieldErrors, submit: run } = useActionForm();

  const a = nics.find((nic) => String(nic.id) === aNicId) ?? null;
  const b = nics.find((nic) => String(nic.id) === bNicId) ?? null;
  const speedDefault = a && b ? defaultLinkSpeed(a.speedMbps, b.speedMbps) : null;
  const isMtuMismatch = a && b && a.mtu !== null && b.mtu !== null && a.mtu !== b.mtu;
  const subnet = a && b ? sharedSubnetOf(a.addresses, b.addresses) : null;
  const isAlreadyLinked = a && b && a.linkedNicIds.includes(b.id);

  // Choosing a pair fills in what follows from it, unless the user typed their own.
  function choose(nextA: LinkableNic | null, nextB: LinkableNic | null) {
    setANicId(nextA ? String(nextA.id) : "");
    setBNicId(nextB ? String(nextB.id) : "");
    if (nextA) setAHostId(String(nextA.host.id));
    if (nextB) setBHostId(String(nextB.host.id));
    if (!isNameEdited) setName(nextA && nextB ? suggestedName(nextA, nextB) : "");
    if (!isSpeedEdited) {
      const next = nextA && nextB ? defaultLinkSpeed(nextA.speedMbps, nextB.speedMbps) : null;
      setSpeed(next === null ? "" : String(next));
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run(
      () =>
        createLinkAction({
          name: name.trim(),
          aNicId: aNicId ? Number(aNicId) : undefined,
          bNicId: bNicId ? Number(bNicId) : undefined,
          speedMbps: speed.trim() === "" ? null : /^\d+$/.test(speed.trim()) ? Number(speed.trim()) : speed,
          notes,
        }),
      { onSuccess: (value) => router.push(`/links/${value.id}`) },
    );
  }

  const nicsOf = (hostId: string) => nics.filter((nic) => String(nic.host.id) === hostId);
  const others = unplacedErrors(errors, PLACED_FIELDS);

  return (
    <div className="space-y-6">
      <section
        aria-labelledby="suggestions-heading"
        className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="suggestions-heading" className="text-lg font-semibold">
          Suggested pairs
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          NICs on two hosts whose addresses are in the same subnet, most likely joined by a cable.
        </p>
        {suggestions.length > 0 ? (
          <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Suggested pairs">
            {suggestions.map((pair) => {
              const isChosen = a?.id === pair.a.id && b?.id === pair.b.id;
              return (
                <li
                  key={`${pair.a.id}-${pair.b.id}`}
                  className="flex flex-wrap items-center justify-between gap-3 py-3"
                  data-testid="suggested-pair"
                >
                  <div className="min-w-0 text-sm">
                    <span className="font-medium">{pair.a.host.name}</span>{" "}
                    <span className="font-mono">{pair.a.name}</span>
                    <span aria-hidden> ↔ </span>
                    <span className="sr-only"> and </span>
                    <span className="font-medium">{pair.b.host.name}</span>{" "}
                    <span className="font-mono">{pair.b.name}</span>
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      same subnet <span className="font-mono">{pair.subnet}</span>
                      {pair.a.mtu !== null && pair.b.mtu !== null && pair.a.mtu !== pair.b.mtu
                        ? ` · MTU ${pair.a.mtu}/${pair.b.mtu} differ`
                        : ""}
                    </span>
                  </div>
                  <Button
                    type="button"
                    variant={isChosen ? "secondary" : "primary"}
                    onClick={() => choose(pair.a, pair.b)}
                    aria-pressed={isChosen}
                  >
                    {/* The name starts with what the button shows, so that saying it (voice control) presses it. */}
                    {isChosen ? "Chosen" : "Use this pair"}
                    <span className="sr-only">{`: ${pair.a.host.name} ${pair.a.name} and ${pair.b.host.name} ${pair.b.name}`}</span>
                  </Button>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            No two NICs on different hosts share a subnet (or those that do are linked already). Choose the two ends
            below.
          </p>
        )}
      </section>

      <form
        onSubmit={submit}
        noValidate
        className="space-y-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
        aria-label="New link"
      >
        {message ? (
          <Notice tone="error" title="The link was not created">
            {errors.length === 0
              ? message
              : others.length > 0
                ? others.map((entry) => `${entry.field} ${entry.message}`).join("; ")
                : "See the fields marked below."}
          </Notice>
        ) : null}
        <div className="grid gap-6 md:grid-cols-2">
          {(
            [
              {
                side: "A",
                hostId: aHostId,
                otherHostId: bHostId,
                setHostId: setAHostId,
                nicId: aNicId,
                field: "aNicId",
                pick: (nic: LinkableNic | null) => choose(nic, b),
              },
              {
                side: "B",
                hostId: bHostId,
                otherHostId: aHostId,
                setHostId: setBHostId,
                nicId: bNicId,
                field: "bNicId",
                pick: (nic: LinkableNic | null) => choose(a, nic),
              },
            ] as const
          ).map((end) => (
            <fieldset key={end.side} className="space-y-3">
              <legend className="mb-1 text-sm font-semibold">{end.side} end</legend>
              <SelectField
                label={`${end.side} host`}
                value={end.hostId}
                onChange={(event) => {
                  end.setHostId(event.target.value);
                  end.pick(null);
                }}
              >
                <option value="">Choose a host</option>
                {hosts.map((host) => (
                  // A link joins two hosts: the host of the other end is not offered again.
                  <option key={host.id} value={host.id} disabled={String(host.id) === end.otherHostId}>
                    {host.name}
                    {String(host.id) === end.otherHostId ? ` (the ${end.side === "A" ? "B" : "A"} end)` : ""}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label={`${end.side} NIC`}
                value={end.nicId}
                disabled={!end.hostId}
                error={fieldErrors[end.field]}
                onChange={(event) => end.pick(nics.find((nic) => String(nic.id) === event.target.value) ?? null)}
              >
                <option value="">{end.hostId ? "Choose a NIC" : "Choose the host first"}</option>
                {nicsOf(end.hostId).map((nic) => (
                  <option key={nic.id} value={nic.id}>
                    {nicLabel(nic)}
                  </option>
                ))}
              </SelectField>
            </fieldset>
          ))}
        </div>

        {a && b ? (
          <div className="space-y-2" aria-live="polite">
            {subnet ? (
              <p className="text-sm text-emerald-800 dark:text-emerald-300" data-testid="pair-subnet">
                Both ends are in <span className="font-mono">{subnet}</span>.
              </p>
            ) : (
              <Notice tone="warning" title="Not in one subnet">
                These two NICs have no address in a common subnet: iperf3 traffic between them may take another path, or
                none.
              </Notice>
            )}
            {isMtuMismatch ? (
              <Notice tone="warning" title="MTU mismatch" testId="mtu-warning">
                <MtuMismatchBadge a={a.mtu} b={b.mtu} /> {a.host.name} {a.name} uses MTU {a.mtu}, {b.host.name} {b.name}{" "}
                uses {b.mtu}: large frames from one end get fragmented or dropped at the other. Set both to the same MTU
                for a fair measurement.
              </Notice>
            ) : null}
            {isAlreadyLinked ? (
              <Notice tone="warning" title="Already linked">
                Another link joins these two NICs.
              </Notice>
            ) : null}
          </div>
        ) : null}

        <div className="grid gap-4 md:grid-cols-2 md:gap-x-6">
          <TextField
            label="Name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setIsNameEdited(true);
            }}
            error={fieldErrors.name}
            autoComplete="off"
          />
          <TextField
            label="Nominal speed (Mbit/s)"
            inputMode="numeric"
            value={speed}
            onChange={(event) => {
              setSpeed(event.target.value);
              setIsSpeedEdited(true);
            }}
            error={fieldErrors.speedMbps}
            hint={
              <span data-testid="speed-default">
                {a && b
                  ? speedDefault !== null
                    ? `Defaults to the slower NIC's speed: ${speedDefault} Mbit/s (${formatLinkSpeedCompact(speedDefault)}).`
                    : "Neither NIC reports a speed: enter the link's line rate."
                  : "Defaults to the slower NIC's speed."}
              </span>
            }
          />
        </div>
        <TextAreaField
          label="Notes (optional)"
          rows={2}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
          error={fieldErrors.notes}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Creating…">
            Create link
          </Button>
          <Link href="/links" className={buttonClass("secondary")}>
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}
