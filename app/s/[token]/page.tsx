import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { SharedPageView } from "@/components/shares/SharedViews";
import { getSharedPage } from "@/lib/shares/page-data";

// A share link: anyone may open it, without an account (no requirePage here, and the layout shows no
// navigation under /s/). An unknown, expired or revoked token is a 404. What the page shows comes
// from lib/shares (kept in memory by token): the fields of lib/shares/contract.ts and nothing else.

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

/** Read once per request: the metadata and the page both ask. */
const sharedPageOf = cache((token: string) => getSharedPage(token));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const page = await sharedPageOf((await params).token);
  return { title: page ? page.content.title : "Not found", robots: "noindex" };
}

export default async function SharedPage({ params }: Params) {
  const page = await sharedPageOf((await params).token);
  if (!page) notFound();
  return <SharedPageView page={page} />;
}
