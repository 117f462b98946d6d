"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * The page's search parameters as state: `set` writes them to the URL with
 * history.pushState, which the App Router follows (useSearchParams updates, Back works)
 * without asking the server for the page again. A reload or a shared link opens the same view.
 */
export function useUrlState(): { params: URLSearchParams; set: (next: URLSearchParams) => void } {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const set = useCallback(
    (next: URLSearchParams) => {
      const query = next.toString();
      const url = `${pathname}${query ? `?${query}` : ""}`;
      if (url !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", url);
    },
    [pathname],
  );
  return { params: new URLSearchParams(searchParams.toString()), set };
}
