import { ipv4Bytes, ipv6Groups } from "@/lib/format/ip";

// Host names and addresses hidden from what leaves the lab: a forum post ("Copy as post" with
// addresses hidden) and a share link made with hideAddresses. One rule for both: each host
// becomes "host A", "host B" … in the order they are named; each link's name (often made of its
// hosts': "alpha-beta-10g") becomes "link 1", "link 2" … in the same way; an address keeps its private
// network and loses the host part (10.0.0.2 → 10.0.0.x); a public address loses everything
// (x.x.x.x). Pure and browser-safe.

export type Anonymizer = {
  /** Whether anything is hidden (false: every method returns its input). */
  readonly hides: boolean;
  /** "host A", "host B" … : the same name gets the same letter. */
  host(name: string): string;
  /** 10.0.0.2 → "10.0.0.x", fd00::2 → "fd00::x", a public address → "x.x.x.x" or "x::x". */
  address(address: string): string;
  /** "link 1", "link 2" … : the same link name gets the same number. */
  link(name: string): string;
  /** The text with every known link name, host name and IP address in it hidden (commands, errors, outputs). */
  text(value: string): string;
};

/** The anonymizer that hides nothing. */
export const showEverything: Anonymizer = {
  hides: false,
  host: (name) => name,
  link: (name) => name,
  address: (address) => address,
  text: (value) => value,
};

const PRIVATE_V4: [number, number, number][] = [
  // [first byte, second byte's mask, second byte's value]
  [10, 0, 0],
  [172, 0xf0, 16],
  [192, 0xff, 168],
  [100, 0xc0, 64],
  [169, 0xff, 254],
  [127, 0, 0],
  [198, 0xfe, 18],
];

/** An address with its host part hidden; a text that is not an address is returned as it is. */
export function maskAddress(address: string): string {
  const v4 = ipv4Bytes(address);
  if (v4) {
    const isPrivate = PRIVATE_V4.some(([first, mask, value]) => v4[0] === first && (v4[1]! & mask) === value);
    return isPrivate ? `${v4.slice(0, 3).join(".")}.x` : "x.x.x.x";
  }
  const bare = address.replace(/%.*$/, "");
  const v6 = ipv6Groups(bare);
  if (!v6) return address;
  const first = v6[0]!;
  const isLocal = (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
  return isLocal ? `${first.toString(16)}::x` : "x::x";
}

function letterOf(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A name as a word of its own: not inside a longer name, a DNS name or a path. */
const wholeWord = (name: string) =>
  new RegExp(`(?<![A-Za-z0-9_.-])${escapeRegExp(name)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, "g");
const IPV4_IN_TEXT = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!\d|\.\d)/g;
const IPV6_IN_TEXT =
  /(?<![0-9A-Za-z:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%[0-9A-Za-z_.-]+)?(?![0-9A-Za-z:])/g;

/**
 * An anonymizer that knows the lab's host names (in the order they get their letters: the link's
 * A side first) and its link names (in the order they get their numbers), and hides any IP address
 * it meets in a text.
 */
export function createAnonymizer(hostNames: readonly string[] = [], linkNames: readonly string[] = []): Anonymizer {
  const letters = new Map<string, string>();
  const host = (name: string) => {
    let hidden = letters.get(name);
    if (!hidden) {
      hidden = `host ${letterOf(letters.size)}`;
      letters.set(name, hidden);
    }
    return hidden;
  };
  const numbers = new Map<string, string>();
  const link = (name: string) => {
    let hidden = numbers.get(name);
    if (!hidden) {
      hidden = `link ${numbers.size + 1}`;
      numbers.set(name, hidden);
    }
    return hidden;
  };
  for (const name of hostNames) host(name);
  for (const name of linkNames) link(name);
  return {
    hides: true,
    host,
    link,
    address: maskAddress,
    text(value) {
      let hidden = value;
      // Link names first, longest first: they are often made of their hosts' names, and a name of
      // three characters or more is hidden wherever it is ("alpha-beta-10g-b" too); a shorter one
      // only as a whole word (a link named "ab" leaves "tab" alone).
      const links = [...numbers.keys()].filter((name) => name.length > 0).sort((a, b) => b.length - a.length);
      for (const name of links) {
        hidden =
          name.length >= 3
            ? hidden.split(name).join(numbers.get(name)!)
            : hidden.replace(wholeWord(name), numbers.get(name)!);
      }
      hidden = hidden
        .replace(IPV4_IN_TEXT, (found) => (ipv4Bytes(found) ? maskAddress(found) : found))
        .replace(IPV6_IN_TEXT, (found) =>
          /[0-9a-f]/i.test(found) && ipv6Groups(found.replace(/%.*$/, "")) ? maskAddress(found) : found,
        );
      // Longest names first, so that "nas-backup" is not hidden as "host A-backup" when "nas" is known too.
      const names = [...letters.keys()].filter((name) => name.length > 0).sort((a, b) => b.length - a.length);
      for (const name of names) hidden = hidden.replace(wholeWord(name), letters.get(name)!);
      return hidden;
    },
  };
}
