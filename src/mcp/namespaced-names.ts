/**
 * How `/mcp` names what its upstream servers offer, so that one list holds
 * every server's without collisions: a tool or prompt is `<server>__<name>`
 * (server names have no underscores, so the first `__` ends the server's),
 * a resource's URI is `mcp+<server>:<uri>`.
 */
const SEPARATOR = '__';
const RESOURCE_SCHEME = 'mcp+';

export function namespacedName(server: string, name: string): string {
  return `${server}${SEPARATOR}${name}`;
}

/** The server and its own name of a namespaced tool or prompt; undefined when the name has no server part. */
export function splitNamespacedName(name: string): { server: string; name: string } | undefined {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0 || at + SEPARATOR.length >= name.length) return undefined;
  return { server: name.slice(0, at), name: name.slice(at + SEPARATOR.length) };
}

export function namespacedUri(server: string, uri: string): string {
  return `${RESOURCE_SCHEME}${server}:${uri}`;
}

export function splitNamespacedUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(RESOURCE_SCHEME)) return undefined;
  const colon = uri.indexOf(':', RESOURCE_SCHEME.length);
  if (colon <= RESOURCE_SCHEME.length || colon + 1 >= uri.length) return undefined;
  return { server: uri.slice(RESOURCE_SCHEME.length, colon), uri: uri.slice(colon + 1) };
}

/** The pattern that covers every tool of a server: what a key needs for the server's resources and prompts. */
export function wholeServerPattern(server: string): string {
  return namespacedName(server, '*');
}
