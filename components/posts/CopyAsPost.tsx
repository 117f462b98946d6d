"use client";

import { useId, useMemo, useState } from "react";
import { Button, SelectField, TextAreaField } from "@/components/ui/ui";
import { buildPost } from "@/lib/posts/build";
import { POST_FORMAT_LABELS, POST_FORMATS, renderPost, type PostFormat } from "@/lib/posts/document";
import type { PostSource } from "@/lib/posts/sources";

/**
 * "Copy as post": the figures of the page as a forum post, in Markdown or BBCode, with the lab's
 * host names and addresses hidden at one switch. The text is built in the browser from what the page
 * read (lib/posts) and shown in a read-only box too, for a browser that gives no clipboard.
 */
export function CopyAsPost({
  source,
  what,
  className = "mb-6",
}: {
  source: PostSource;
  /** said to screen readers after "Copy as post" where a page has more than one: "the history" */
  what?: string;
  className?: string;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [format, setFormat] = useState<PostFormat>("markdown");
  const [hide, setHide] = useState(false);
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const panelId = useId();
  const textId = `${panelId}-text`;
  const text = useMemo(() => renderPost(buildPost(source, hide), format), [source, hide, format]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("copied");
    } catch {
      // Plain http (not localhost) or a refused permission: the text is selected for Ctrl+C.
      const box = document.getElementById(textId) as HTMLTextAreaElement | null;
      box?.focus();
      box?.select();
      setCopied("failed");
    }
  }

  return (
    <div className={className} data-testid="copy-as-post">
      <Button
        type="button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => {
          setIsOpen(!isOpen);
          setCopied("idle");
        }}
      >
        Copy as post{what ? <span className="sr-only"> ({what})</span> : null}
      </Button>
      {isOpen ? (
        <div
          id={panelId}
          role="group"
          aria-label={`Copy as post${what ? ` (${what})` : ""}`}
          className="mt-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="mb-3 flex flex-wrap items-end gap-x-6 gap-y-3">
            <SelectField
              label="Format"
              value={format}
              onChange={(event) => {
                setFormat(event.target.value as PostFormat);
                setCopied("idle");
              }}
              className="w-full sm:w-56"
              hint="Markdown for GitHub, Reddit, Discourse; BBCode for classic forums."
            >
              {POST_FORMATS.map((value) => (
                <option key={value} value={value}>
                  {POST_FORMAT_LABELS[value]}
                </option>
              ))}
            </SelectField>
            <HideSwitch
              checked={hide}
              onChange={(value) => {
                setHide(value);
                setCopied("idle");
              }}
            />
          </div>
          <TextAreaField
            id={textId}
            label="Post text"
            value={text}
            readOnly
            rows={12}
            isMonospace
            spellCheck={false}
            data-testid="post-text"
            hint={hide ? "Host names read host A, host B; addresses 10.0.0.x; links link 1, link 2." : undefined}
          />
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <Button type="button" variant="primary" onClick={() => void copy()}>
              Copy to clipboard
            </Button>
            <p role="status" className="text-sm text-slate-700 dark:text-slate-300" data-testid="post-copied">
              {copied === "copied"
                ? `Copied: paste it into your post (${POST_FORMAT_LABELS[format]}).`
                : copied === "failed"
                  ? "The browser gave no clipboard: the text is selected, press Ctrl+C (⌘C)."
                  : ""}
            </p>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** A switch (a checkbox that says on and off): hide the lab's names and addresses. */
function HideSwitch({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-3 py-2 text-sm font-medium">
      {/* The checkbox lies over the track, invisible: pointer, keyboard and screen readers reach it there. */}
      <span className="relative inline-flex shrink-0">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          aria-checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          className="peer absolute inset-0 z-10 m-0 h-full w-full cursor-pointer opacity-0"
        />
        <span
          aria-hidden
          className={
            "relative inline-block h-6 w-11 rounded-full bg-slate-500 transition-colors " +
            "peer-checked:bg-sky-700 peer-focus-visible:ring-2 peer-focus-visible:ring-sky-500 " +
            "peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-white " +
            "dark:peer-checked:bg-sky-500 dark:peer-focus-visible:ring-offset-slate-950 " +
            "after:absolute after:top-0.5 after:left-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white " +
            "after:transition-transform peer-checked:after:translate-x-5"
          }
        />
      </span>
      Hide addresses and host names
    </label>
  );
}
