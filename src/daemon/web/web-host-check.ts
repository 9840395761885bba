// Which Host names the web port answers to (DESIGN §12): a defence against DNS rebinding, decided by pure functions.
//
// A page on evil.example can make its own name resolve to 127.0.0.1 and then talk to the web port as a same-origin
// site: its requests carry `Host: evil.example` and `Origin: http://evil.example`, which agree with each other. Only the
// Host name tells such a request apart, so every route refuses a name larkmux does not serve.

/** Names of this machine's loopback interface, which a browser on it may use. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'] as const;
/** Listen addresses that mean "every interface": they name no host of their own. */
const WILDCARD_ADDRESSES = ['0.0.0.0', '::', ''] as const;

/**
 * A Host header's name: lowercased, without the port, brackets or a trailing dot; null when it is not a plain host
 * name or IP literal (a browser never sends anything else, so anything else is refused).
 */
export function hostNameOf(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+))(?::\d{1,5})?$/i.exec(header.trim());
  if (!m) return null;
  const name = (m[1] ?? m[2] ?? '').toLowerCase().replace(/\.$/, '');
  return name || null;
}

/** A configured name or address in the form `hostNameOf` returns (a bare IPv6 address has no port to strip). */
function normalise(name: string): string {
  const bracketed = /^\[(.*)\]$/.exec(name.trim());
  return (bracketed ? (bracketed[1] ?? '') : name.trim()).toLowerCase().replace(/\.$/, '');
}

export interface ServedHostsInput {
  /** web.host: named too when it is one specific address (not a wildcard). */
  bindHost: string;
  /** web.publicUrl, whose host people open behind TLS or a tunnel. */
  publicUrl?: string | undefined;
  /** web.allowedHosts: further names the operator serves the port under. */
  allowedHosts?: readonly string[] | undefined;
  /**
   * This machine's interface addresses, counted only when the port listens on a wildcard: cards then link to one of
   * them (reachableBaseUrl), and an IP literal cannot be rebound to another server.
   */
  interfaceAddresses?: readonly string[] | undefined;
}

/** Every Host name the web port answers to, normalised as `hostNameOf` returns them. */
export function servedHostNames(input: ServedHostsInput): ReadonlySet<string> {
  const names = new Set<string>(LOOPBACK_NAMES);
  const wildcard = (WILDCARD_ADDRESSES as readonly string[]).includes(input.bindHost.trim());
  if (!wildcard) names.add(normalise(input.bindHost));
  else for (const a of input.interfaceAddresses ?? []) names.add(normalise(a));
  if (input.publicUrl) names.add(normalise(new URL(input.publicUrl).hostname));
  for (const h of input.allowedHosts ?? []) names.add(normalise(h));
  return names;
}

/** Does a request with this Host header ask for a name the port serves? */
export function hostServed(header: string | undefined, served: ReadonlySet<string>): boolean {
  const name = hostNameOf(header);
  return name !== null && served.has(name);
}
