import type { FunctionComponent } from 'preact';
import { useEffect } from 'preact/hooks';
import { Nav, type NavItem } from './components/Nav';
import { SecretForm } from './components/SecretForm';
import { SecretStatus } from './components/SecretStatus';
import { ToastProvider } from './components/Toasts';
import { useHashRoute } from './lib/use-hash-route';
import { useStoredSecret } from './lib/use-stored-secret';
import { AdminPage } from './pages/admin/AdminPage';
import { CatalogPage } from './pages/catalog/CatalogPage';
import { FilesPage } from './pages/files/FilesPage';
import { TasksPage } from './pages/tasks/TasksPage';
import { UsagePage } from './pages/usage/UsagePage';

const ROUTES = ['tasks', 'usage', 'files', 'catalog', 'admin'] as const;
type Route = (typeof ROUTES)[number];

const NAV: ReadonlyArray<NavItem<Route>> = [
  { route: 'tasks', label: 'Tasks' },
  { route: 'usage', label: 'Usage' },
  { route: 'files', label: 'Files' },
  { route: 'catalog', label: 'Catalog' },
  { route: 'admin', label: 'Admin' },
];

/** The pages that run as the API key. */
const KEY_PAGES: Record<Exclude<Route, 'admin'>, FunctionComponent<{ apiKey: string }>> = {
  tasks: TasksPage,
  usage: UsagePage,
  files: FilesPage,
  catalog: CatalogPage,
};

export const API_KEY_STORAGE = 'gateway-console.api-key';

/**
 * The console: a header with the page links and the key in use, and the
 * page of the location's hash. Every page but Admin runs as the API key,
 * asked for first; Admin asks for the admin token instead.
 */
export function App() {
  const route = useHashRoute(ROUTES, 'tasks');
  const key = useStoredSecret(API_KEY_STORAGE);
  const label = NAV.find((item) => item.route === route)?.label ?? '';
  useEffect(() => {
    document.title = `${label} · Model Gateway console`;
  }, [label]);
  const Page = route === 'admin' ? undefined : KEY_PAGES[route];
  return (
    <ToastProvider>
      <header class="top">
        <div class="brand">
          Model Gateway <span>console</span>
        </div>
        <Nav items={NAV} current={route} />
        {key.value && <SecretStatus label="API key" secret={key.value} onForget={key.forget} />}
      </header>
      <main>
        {Page === undefined ? (
          <AdminPage />
        ) : key.value ? (
          <Page key={key.value} apiKey={key.value} />
        ) : (
          <SecretForm
            label="API key"
            hint="A key of this gateway (sk-gw-…), as an operator creates it with POST /api/admin/keys. It stays in this browser and goes only to this gateway."
            placeholder="sk-gw-…"
            onSave={key.save}
          />
        )}
      </main>
    </ToastProvider>
  );
}
