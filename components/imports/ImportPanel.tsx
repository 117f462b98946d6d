"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { apiResultOf, NO_ANSWER, useActionForm } from "@/components/forms/use-action-form";
import { invalidateRunViews } from "@/components/queries";
import { Button, FieldMessages, Notice, SelectField, TextAreaField, TextField } from "@/components/ui/ui";
import { MAX_IMPORT_OUTPUTS, type ImportResponse } from "@/lib/imports/contract";
import type { ClientSide } from "@/lib/runs/contract";
import { importRequestOf, type ImportSource } from "./import-request";

type Props = { linkId: number; aName: string; bName: string };
type FieldErrors = Partial<Record<"files" | "pasted" | "startedAt", string>>;

/**
 * "Import results" on a link page: iperf3 outputs a user already has (files, or one pasted
 * output) become runs of the link, marked imported. The report lists each output: imported (with
 * its run), already imported, or not read and why.
 */
export function ImportPanel({ linkId, aName, bName }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const filesId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<ImportSource[]>([]);
  const [pasted, setPasted] = useState("");
  const [clientSide, setClientSide] = useState<ClientSide>("a");
  const [startedAt, setStartedAt] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [report, setReport] = useState<ImportResponse | null>(null);
  // The form's own checks place their messages in `errors`; the server's refusal is the notice's.
  const { isPending, message: failure, reset, submit: run } = useActionForm();

  async function readFiles(list: FileList | null) {
    const chosen = Array.from(list ?? []);
    setFiles(await Promise.all(chosen.map(async (file) => ({ name: file.name, text: await file.text() }))));
    setErrors((current) => ({ ...current, files: undefined }));
  }

  function submit() {
    reset();
    setReport(null);
    const built = importRequestOf({ files, pasted, clientSide, startedAt });
    if (!built.ok) {
      setErrors({ [built.field]: built.message });
      return;
    }
    setErrors({});
    run(
      () =>
        fetch(`/api/links/${linkId}/imports`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          credentials: "same-origin",
          body: JSON.stringify(built.request),
        }).then(apiResultOf<ImportResponse>, () => NO_ANSWER),
      {
        onSuccess: async (body) => {
          setReport(body);
          if (body.imported.length > 0) {
            setFiles([]);
            setPasted("");
            if (fileInput.current) fileInput.current.value = "";
            await invalidateRunViews(queryClient);
            router.refresh();
          }
        },
      },
    );
  }

  return (
    <form
      aria-label="Import results"
      className="space-y-4"
      data-testid="import-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Outputs of iperf3 you already have: text as iperf3 printed it (3.0 to 3.21, client or server side, also as
        copied from a web page), <code>-J</code> or <code>--json-stream</code>. Each becomes a run of this link, marked
        imported. Up to {MAX_IMPORT_OUTPUTS} files at once, 20 MB in all.
      </p>
      <div>
        <label htmlFor={filesId} className="mb-1 block text-sm font-medium">
          Output files
        </label>
        <input
          ref={fileInput}
          id={filesId}
          type="file"
          multiple
          accept=".txt,.log,.json,.out,text/plain,application/json"
          aria-invalid={errors.files ? true : undefined}
          aria-describedby={`${filesId}-hint${errors.files ? ` ${filesId}-error` : ""}`}
          onChange={(event) => void readFiles(event.target.files)}
          className={
            "block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 " +
            "file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-200 dark:file:bg-slate-800 " +
            "dark:file:text-slate-100"
          }
        />
        <FieldMessages
          id={filesId}
          hint={
            files.length > 0
              ? `${files.length} file${files.length === 1 ? "" : "s"} chosen`
              : "Choose one or more files"
          }
          error={errors.files}
        />
      </div>
      <TextAreaField
        label="Or paste one output"
        name="pasted"
        rows={5}
        isMonospace
        value={pasted}
        onChange={(event) => setPasted(event.target.value)}
        error={errors.pasted}
        placeholder={
          "Connecting to host 192.168.1.2, port 5201\n[  5] local 192.168.1.1 port 50514 connected to 192.168.1.2 port 5201\n…"
        }
      />
      <div className="flex flex-wrap gap-4">
        <SelectField
          label="The iperf3 client ran on"
          name="clientSide"
          value={clientSide}
          onChange={(event) => setClientSide(event.target.value === "b" ? "b" : "a")}
          hint="Used when the output's addresses are not this link's"
          className="w-64"
        >
          <option value="a">A: {aName}</option>
          <option value="b">B: {bName}</option>
        </SelectField>
        <TextField
          label="When the tests ran"
          name="startedAt"
          type="datetime-local"
          value={startedAt}
          onChange={(event) => setStartedAt(event.target.value)}
          hint="For text outputs, which carry no time; empty: now. JSON outputs keep their own."
          error={errors.startedAt}
          className="w-64"
        />
      </div>
      <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Importing…">
        Import
      </Button>
      {failure ? (
        <Notice tone="error" title="Nothing was imported">
          {failure}
        </Notice>
      ) : null}
      {report ? <ImportReport report={report} /> : null}
    </form>
  );
}

function ImportReport({ report }: { report: ImportResponse }) {
  const { imported, duplicates, failed } = report;
  const tone = failed.length > 0 ? "warning" : "success";
  const others = [
    duplicates.length > 0 ? `${duplicates.length} already imported` : null,
    failed.length > 0 ? `${failed.length} not read` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const title =
    imported.length > 0
      ? [`${imported.length} imported`, others].filter(Boolean).join(", ")
      : `Nothing imported: ${others}`;
  return (
    <Notice tone={tone} title={title} testId="import-report">
      <ul className="space-y-1">
        {imported.map((entry) => (
          <li key={`i${entry.runId}`}>
            <span className="font-mono">{entry.name}</span>:{" "}
            <Link href={`/runs/${entry.runId}`} className="font-medium underline">
              run #{entry.runId}
            </Link>
          </li>
        ))}
        {duplicates.map((entry, index) => (
          <li key={`d${index}`}>
            <span className="font-mono">{entry.name}</span>: already imported as{" "}
            <Link href={`/runs/${entry.runId}`} className="font-medium underline">
              run #{entry.runId}
            </Link>
          </li>
        ))}
        {failed.map((entry, index) => (
          <li key={`f${index}`}>
            <span className="font-mono">{entry.name}</span>: not read: {entry.error.message}
          </li>
        ))}
      </ul>
    </Notice>
  );
}
