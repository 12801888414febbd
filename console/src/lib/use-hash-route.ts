import { useEffect, useState } from 'preact/hooks';

/**
 * The page named by the location's hash (`#/usage` -> `usage`), so every
 * page has a link of its own and the gateway serves one index.html for all
 * of them. An unknown or empty hash is `fallback`.
 */
export function useHashRoute<R extends string>(routes: readonly R[], fallback: R): R {
  const [route, setRoute] = useState(() => parse(routes, fallback));
  useEffect(() => {
    const onChange = () => setRoute(parse(routes, fallback));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, [routes, fallback]);
  return route;
}

function parse<R extends string>(routes: readonly R[], fallback: R): R {
  const name = window.location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (routes as readonly string[]).includes(name) ? (name as R) : fallback;
}
