// A live event stream (a run's, an experiment's) ends with an `error` event of kind
// "unauthorized" or "forbidden" when whoever opened it lost access (signed out, disabled,
// deleted, token revoked: lib/api/stream-access.ts). The page then stops following and
// re-renders, which sends a signed-out browser to the sign-in page; a run's own error
// (its `error` event with an iperf3 or engine kind) is not that.

/** Calls `onEnded` once the stream says its access ended; returns the listener's remover. */
export function onStreamAccessEnded(source: EventSource, onEnded: () => void): () => void {
  const listener = (event: Event) => {
    const data = (event as MessageEvent<unknown>).data;
    if (typeof data !== "string") return;
    try {
      const { kind } = JSON.parse(data) as { kind?: unknown };
      if (kind !== "unauthorized" && kind !== "forbidden") return;
    } catch {
      return;
    }
    source.close();
    onEnded();
  };
  source.addEventListener("error", listener);
  return () => source.removeEventListener("error", listener);
}
