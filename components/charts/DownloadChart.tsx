"use client";

import { useId, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { buttonClass } from "@/components/ui/styles";

/** The width of every downloaded chart, in pixels; its height follows the chart's own shape. */
export const CHART_PNG_WIDTH = 1200;

const THEMES = {
  // The colours of ChartFrame's text (axes, grid, line rate: currentColor) and of the page behind it.
  light: { label: "Light", text: "#475569", background: "#ffffff", title: "#0f172a" },
  dark: { label: "Dark", text: "#cbd5e1", background: "#020617", title: "#f1f5f9" },
} as const;
type Theme = keyof typeof THEMES;

const TITLE_HEIGHT = 64;
// What a chart's elements take from the page's style sheets rather than from their own attributes.
const INLINED = ["font-family", "font-size", "font-weight", "opacity", "visibility", "display"] as const;

/**
 * The chart's SVG as a standalone document for the chosen theme: every element's computed fonts
 * inlined (an SVG drawn as an image sees no style sheet), currentColor resolved by the theme's text
 * colour, and the size scaled to `width`.
 */
function standaloneSvg(svg: SVGSVGElement, theme: Theme, width: number): { markup: string; height: number } {
  const box = svg.getBoundingClientRect();
  const height = Math.round((box.height / box.width) * width);
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const originals = [svg, ...svg.querySelectorAll<Element>("*")];
  const copies = [clone, ...clone.querySelectorAll<Element>("*")];
  originals.forEach((original, index) => {
    const copy = copies[index];
    if (!copy) return;
    const computed = getComputedStyle(original);
    const style = INLINED.map((name) => `${name}:${computed.getPropertyValue(name)}`).join(";");
    copy.setAttribute("style", `${copy.getAttribute("style") ?? ""};${style}`);
  });
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  clone.setAttribute(
    "style",
    `${clone.getAttribute("style") ?? ""};color:${THEMES[theme].text};background:${THEMES[theme].background}`,
  );
  return { markup: new XMLSerializer().serializeToString(clone), height };
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error("the chart could not be drawn"));
    image.src = url;
  });
}

/** The chart as a PNG: a title line above it, `width` pixels wide, on the theme's background. */
async function chartPng(svg: SVGSVGElement, title: string, theme: Theme, width: number): Promise<Blob> {
  const { markup, height } = standaloneSvg(svg, theme, width);
  const url = URL.createObjectURL(new Blob([markup], { type: "image/svg+xml" }));
  try {
    const image = await loadImage(url);
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = TITLE_HEIGHT + height;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("the browser gave no canvas");
    context.fillStyle = THEMES[theme].background;
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.fillStyle = THEMES[theme].title;
    context.font = `600 24px ${getComputedStyle(document.body).fontFamily}`;
    context.textBaseline = "middle";
    context.fillText(title, 24, TITLE_HEIGHT / 2, width - 48);
    context.drawImage(image, 0, TITLE_HEIGHT, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the PNG could not be made"))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

const DARK_SCHEME = "(prefers-color-scheme: dark)";

function subscribeToScheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_SCHEME);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

function prefersDarkNow(): boolean {
  return window.matchMedia(DARK_SCHEME).matches;
}

/**
 * A chart with "Download chart" under it: the chart on the page, drawn again in the browser as a
 * PNG 1200 px wide in the light or dark theme, with a title line, saved as `fileName`.
 */
export function DownloadChart({ fileName, title, children }: { fileName: string; title: string; children: ReactNode }) {
  const chartRef = useRef<HTMLDivElement>(null);
  // The page's own theme until one is chosen: what the chart looks like now.
  const prefersDark = useSyncExternalStore(subscribeToScheme, prefersDarkNow, () => false);
  const [chosen, setTheme] = useState<Theme | null>(null);
  const theme: Theme = chosen ?? (prefersDark ? "dark" : "light");
  const [state, setState] = useState<{ kind: "idle" | "working" | "done" } | { kind: "failed"; message: string }>({
    kind: "idle",
  });
  const selectId = useId();

  async function download() {
    const svg = chartRef.current?.querySelector<SVGSVGElement>("svg.recharts-surface");
    if (!svg) {
      setState({ kind: "failed", message: "There is no chart to download yet." });
      return;
    }
    setState({ kind: "working" });
    try {
      const blob = await chartPng(svg, title, theme, CHART_PNG_WIDTH);
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({ kind: "done" });
    } catch (error) {
      setState({ kind: "failed", message: `No PNG: ${error instanceof Error ? error.message : String(error)}.` });
    }
  }

  return (
    <div>
      <div ref={chartRef}>{children}</div>
      <div className="mt-2 flex flex-wrap items-center justify-end gap-2" data-testid="download-chart">
        <p role="status" className="mr-auto text-xs text-slate-600 dark:text-slate-400">
          {state.kind === "done" ? `Saved ${fileName}.` : state.kind === "failed" ? state.message : ""}
        </p>
        <label htmlFor={selectId} className="text-sm font-medium">
          PNG theme
        </label>
        <select
          id={selectId}
          value={theme}
          onChange={(event) => setTheme(event.target.value as Theme)}
          className={
            "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 outline-none " +
            "focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          }
        >
          {(Object.keys(THEMES) as Theme[]).map((value) => (
            <option key={value} value={value}>
              {THEMES[value].label}
            </option>
          ))}
        </select>
        <button
          type="button"
          onClick={() => void download()}
          disabled={state.kind === "working"}
          className={`${buttonClass("secondary")} py-1.5`}
        >
          Download chart
        </button>
      </div>
    </div>
  );
}
