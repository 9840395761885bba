// Whether a peer of the web port is this machine: the console's remote-access gate and the web terminal's view caps ask.

/** Loopback peers: this machine, including a reverse proxy or tunnel client running on it. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d+\.\d+\.\d+$/.test(v4);
}
