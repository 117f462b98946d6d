"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { textBinder } from "@/components/forms/field-binding";
import { unplacedErrors, useActionForm, type FieldPlacement } from "@/components/forms/use-action-form";
import { addHostNicAction } from "@/lib/inventory/actions/add-host-nic";
import { Button, Notice, SelectField, TextField } from "@/components/ui/ui";
import { wholeNumberOrText } from "./fields";
import { unplacedErrorsText } from "./HostAddressFields";

type NicFields = { name: string; addresses: string; speedMbps: string; mtu: string; medium: string };
const EMPTY: NicFields = { name: "", addresses: "", speedMbps: "", mtu: "", medium: "" };
const PLACED = ["name", "addresses", "speedMbps", "mtu", "medium"];

// "addresses[1]: must be …" shows under the one field that holds the list.
const placeAddresses: FieldPlacement = (error) =>
  error.field.startsWith("addresses") ? { field: "addresses", message: error.message } : error;

/**
 * A NIC typed in by hand, for a host no discovery reads (an iperf3 server, a device): its name, its
 * addresses (none for a device whose address changes) and, optionally, its speed and MTU.
 */
export function AddNicForm({ hostId, isAddressOptional }: { hostId: number; isAddressOptional: boolean }) {
  const router = useRouter();
  const [fields, setFields] = useState<NicFields>(EMPTY);
  const [added, setAdded] = useState<string | null>(null);
  const { isPending, message, errors, fieldErrors, submit } = useActionForm(placeAddresses);
  const field = textBinder(fields, (next) => setFields((previous) => ({ ...previous, ...next })), fieldErrors, {
    isNamed: false,
  });

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAdded(null);
    const addresses = fields.addresses.split(/[\s,]+/).filter(Boolean);
    submit(
      () =>
        addHostNicAction({
          hostId,
          name: fields.name.trim(),
          addresses,
          ...(fields.speedMbps.trim() === "" ? {} : { speedMbps: wholeNumberOrText(fields.speedMbps) }),
          ...(fields.mtu.trim() === "" ? {} : { mtu: wholeNumberOrText(fields.mtu) }),
          ...(fields.medium === "" ? {} : { medium: fields.medium }),
        }),
      {
        onSuccess: (value) => {
          setAdded(value.name);
          setFields(EMPTY);
          router.refresh();
        },
      },
    );
  }

  const others = unplacedErrors(errors, PLACED);
  return (
    <form onSubmit={add} noValidate className="space-y-4" aria-label="Add a NIC">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="NIC name" required {...field("name")} hint="wlan0, eth0, Wi-Fi." autoComplete="off" />
        <TextField
          label={isAddressOptional ? "Addresses (optional)" : "Addresses"}
          required={!isAddressOptional}
          {...field("addresses")}
          hint={
            isAddressOptional
              ? "Leave empty when its address changes (DHCP): the device connects to the other end."
              : "The address its iperf3 server answers at, such as 198.18.0.10; several separated by commas."
          }
          autoComplete="off"
          spellCheck={false}
        />
        <TextField label="Speed in Mbit/s (optional)" inputMode="numeric" {...field("speedMbps")} />
        <TextField label="MTU (optional)" inputMode="numeric" {...field("mtu")} />
        <SelectField
          label="Medium"
          {...field("medium")}
          hint="A device's Wi-Fi and Ethernet NICs show side by side on its page."
        >
          <option value="">Not said</option>
          <option value="wifi">Wi-Fi</option>
          <option value="ethernet">Ethernet</option>
        </SelectField>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" isPending={isPending} pendingLabel="Adding…">
          Add NIC
        </Button>
        <div aria-live="polite" className="min-w-0 flex-1">
          {added ? (
            <span role="status" className="text-sm text-emerald-800 dark:text-emerald-300">
              NIC {added} added.
            </span>
          ) : message ? (
            <Notice tone="error" title="The NIC was not added">
              {errors.length === 0
                ? message
                : others.length > 0
                  ? unplacedErrorsText(others)
                  : "See the fields marked above."}
            </Notice>
          ) : null}
        </div>
      </div>
    </form>
  );
}
