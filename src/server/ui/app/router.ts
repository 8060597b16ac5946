// Pages are addressed by the URL's fragment (#/traces/abc?x=1): the server serves one page, and
// a link can still be bookmarked or opened in a new tab.
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string[];
  query: URLSearchParams;
}

function current(): Location {
  const hash = window.location.hash.replace(/^#/, '') || '/traces';
  const [path = '', query = ''] = hash.split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const onChange = () => setLocation(current());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return location;
}

export function href(path: readonly string[], query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return `#/${path.map(encodeURIComponent).join('/')}${text ? `?${text}` : ''}`;
}

export function navigate(path: readonly string[], query: Record<string, string | undefined> = {}): void {
  window.location.hash = href(path, query);
}
