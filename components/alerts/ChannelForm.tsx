"use client";

import { useId, useState } from "react";
import { ChoiceGroup } from "@/components/experiments/form/ChoiceGroup";
import { ItemForm, useItemSave } from "@/components/forms/ItemForm";
import { FieldMessages, SelectField, TextField } from "@/components/ui/ui";
import { saveChannelAction } from "@/lib/notify/actions/save-channel";
import { CHANNEL_TYPE_LABELS, CHANNEL_TYPES, type ChannelJson } from "@/lib/notify/contract";
import {
  CHANNEL_FIELDS,
  channelFieldsOf,
  channelFieldOf,
  channelRequestBody,
  fieldValue,
  isCleared,
  isSecretField,
  newChannelFields,
  secretsDroppedOnSave,
  withCleared,
  withValue,
  type ChannelFieldSpec,
  type ChannelFormFields,
} from "./channel-fields";

// Every form key a field shows a message for; the rest go in the notice on top.
const PLACED_KEYS = new Set([
  "name",
  "type",
  ...Object.values(CHANNEL_FIELDS).flatMap((specs) => specs.map((spec) => spec.key)),
]);

function CheckboxField({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-2 pt-1 sm:pt-7">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-0.5 h-4 w-4 accent-sky-600"
      />
      <div>
        <label htmlFor={id} className="text-sm">
          {label}
        </label>
        <FieldMessages id={id} hint={hint} />
      </div>
    </div>
  );
}

/** One config field: a secret is a password input that says when one is stored and that empty keeps it. */
function ConfigField({
  spec,
  fields,
  onChange,
  error,
  secretsSet,
  isDropped,
}: {
  spec: ChannelFieldSpec;
  fields: ChannelFormFields;
  onChange: (fields: ChannelFormFields) => void;
  error?: string;
  secretsSet: readonly string[];
  /** the destination changed and this stored secret is left empty: saving drops it */
  isDropped: boolean;
}) {
  const value = fieldValue(fields, spec.key);
  if (spec.kind === "checkbox")
    return (
      <CheckboxField
        label={spec.label}
        checked={value === true}
        onChange={(checked) => onChange(withValue(fields, spec.key, checked))}
        hint={spec.hint}
      />
    );
  if (spec.kind === "select") {
    return (
      <SelectField
        label={spec.label}
        name={spec.key}
        value={String(value)}
        onChange={(event) => onChange(withValue(fields, spec.key, event.target.value))}
        hint={spec.hint}
        error={error}
      >
        {spec.choices?.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </SelectField>
    );
  }
  const isSecret = isSecretField(fields.type, spec.key);
  const isSet = isSecret && secretsSet.includes(spec.key);
  const cleared = isCleared(fields, spec.key);
  return (
    <div>
      <TextField
        label={spec.label}
        name={spec.key}
        type={isSecret ? "password" : spec.kind === "email" ? "email" : "text"}
        inputMode={spec.kind === "number" ? "numeric" : spec.kind === "url" && !isSecret ? "url" : undefined}
        autoComplete={isSecret ? "new-password" : "off"}
        spellCheck={false}
        value={String(value)}
        disabled={cleared}
        placeholder={
          isSet ? (cleared ? "removed on save" : isDropped ? "enter it again" : "set — leave empty to keep") : undefined
        }
        onChange={(event) => onChange(withValue(fields, spec.key, event.target.value))}
        hint={
          isSet
            ? `${spec.hint ? `${spec.hint}. ` : ""}${
                isDropped
                  ? "Where the channel sends changed: the stored value is not sent there, enter it again (left empty, it is removed)."
                  : "A value is set: leave empty to keep it."
              }`
            : spec.hint
        }
        error={error}
      />
      {isSet && spec.isOptional ? (
        <label className="mt-1 inline-flex items-center gap-2 text-xs">
          <input
            type="checkbox"
            checked={cleared}
            onChange={(event) => onChange(withCleared(withValue(fields, spec.key, ""), spec.key, event.target.checked))}
            className="h-3.5 w-3.5 accent-sky-600"
          />
          Remove it
        </label>
      ) : null}
    </div>
  );
}

/**
 * A notification channel's form, new or edit: its name, its type (fixed once saved) and the
 * fields of that type. Secrets are never shown: a stored one is a password field that keeps
 * its value when left empty.
 */
export function ChannelForm({ channel, onDone }: { channel?: ChannelJson; onDone?: () => void }) {
  const isEdit = channel !== undefined;
  const [fields, setFields] = useState<ChannelFormFields>(() =>
    channel ? channelFieldsOf(channel) : newChannelFields(),
  );
  const { isPending, message, fieldErrors: errors, save } = useItemSave(PLACED_KEYS, channelFieldOf);
  const secretsSet = channel?.secretsSet ?? [];
  const dropped = channel ? secretsDroppedOnSave(channel, fields) : [];

  const submit = () =>
    save(
      () => saveChannelAction({ channelId: channel?.id, channel: channelRequestBody(fields, isEdit) }),
      () => {
        if (!isEdit) setFields(newChannelFields(fields.type));
        onDone?.();
      },
    );

  return (
    <ItemForm
      noun="channel"
      editedName={channel?.name}
      isPending={isPending}
      message={message}
      onSubmit={submit}
      onCancel={onDone}
    >
      <TextField
        label="Name"
        name="name"
        className="max-w-md"
        value={fields.name}
        onChange={(event) => setFields({ ...fields, name: event.target.value })}
        error={errors.name}
        placeholder="lab ntfy"
      />
      {isEdit ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Type: <span className="font-medium">{CHANNEL_TYPE_LABELS[fields.type]}</span>{" "}
          <span className="text-xs text-slate-600 dark:text-slate-400">
            (fixed: create a new channel for another type)
          </span>
        </p>
      ) : (
        <ChoiceGroup
          legend="Type"
          choices={CHANNEL_TYPES.map((type) => ({ value: type, label: CHANNEL_TYPE_LABELS[type] }))}
          selected={[fields.type]}
          onChange={([type]) => setFields({ ...fields, type: type! })}
          error={errors.type}
          testId="channel-type"
        />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {CHANNEL_FIELDS[fields.type].map((spec) => (
          <ConfigField
            key={`${fields.type}.${spec.key}`}
            spec={spec}
            fields={fields}
            onChange={setFields}
            error={errors[spec.key]}
            secretsSet={secretsSet}
            isDropped={dropped.includes(spec.key)}
          />
        ))}
      </div>
    </ItemForm>
  );
}
