import type { FunctionComponent } from 'preact';
import { useEffect } from 'preact/hooks';
import { Nav, type NavItem } from './components/Nav';
import { SecretStatus } from './components/SecretStatus';
import { ToastProvider, ToastRegion } from './components/Toasts';
import { useHashRoute } from './lib/use-hash-route';
import { useStoredSecret } from './lib/use-stored-secret';
import { AdminPage } from './pages/admin/AdminPage';
import { CatalogPage } from './pages/catalog/CatalogPage';
import { CredentialsPage } from './pages/credentials/CredentialsPage';
import { FilesPage } from './pages/files/FilesPage';
import { McpPage } from './pages/mcp/McpPage';
import { SignInPage } from './pages/sign-in/SignInPage';
import { TasksPage } from './pages/tasks/TasksPage';
import { UsagePage } from './pages/usage/UsagePage';

const ROUTES = ['tasks', 'usage', 'files', 'credentials', 'catalog', 'admin', 'mcp'] as const;
type Route = (typeof ROUTES)[number];

const NAV: ReadonlyArray<NavItem<Route>> = [
  { route: 'tasks', label: 'Tasks' },
  { route: 'usage', label: 'Usage' },
  { route: 'files', label: 'Files' },
  { route: 'credentials', label: 'Credentials' },
  { route: 'catalog', label: 'Catalog' },
  { route: 'admin', label: 'Admin' },
  { route: 'mcp', label: 'MCP' },
];

/** The pages that run as the operator, with the admin token. */
type OperatorRoute = 'admin' | 'mcp';

/** The pages that run as the API key. */
const KEY_PAGES: Record<Exclude<Route, OperatorRoute>, FunctionComponent<{ apiKey: string }>> = {
  tasks: TasksPage,
  usage: UsagePage,
  files: FilesPage,
  credentials: CredentialsPage,
  catalog: CatalogPage,
};

export const API_KEY_STORAGE = 'gateway-console.api-key';
export const ADMIN_TOKEN_STORAGE = 'gateway-console.admin-token';

/** The page a key opens on, after signing in with it from Admin. */
const FIRST_KEY_PAGE: Route = 'catalog';

/**
 * The console: a header with the page links and the key in use, the
 * toasts, and the page of the location's hash. Every page but Admin runs
 * as the API key; without one, the sign-in page offers the key or the
 * admin token. Admin and MCP run with the admin token, kept apart from the key.
 */
export function App() {
  const route = useHashRoute(ROUTES, 'tasks');
  const key = useStoredSecret(API_KEY_STORAGE);
  const adminToken = useStoredSecret(ADMIN_TOKEN_STORAGE);
  const label = NAV.find((item) => item.route === route)?.label ?? '';
  useEffect(() => {
    document.title = `${label} · Model Gateway console`;
  }, [label]);
  const Page = route === 'admin' || route === 'mcp' ? undefined : KEY_PAGES[route];
  const signInWithKey = (value: string, remember: boolean) => {
    key.save(value, remember);
    window.location.hash = `#/${FIRST_KEY_PAGE}`;
  };
  return (
    <ToastProvider scope={route}>
      <header class="top">
        <div class="brand">
          Model Gateway <span>console</span>
        </div>
        <Nav items={NAV} current={route} />
        {key.value && <SecretStatus label="API key" secret={key.value} onForget={key.forget} />}
      </header>
      <main>
        <ToastRegion />
        {route === 'mcp' ? (
          <McpPage token={adminToken} />
        ) : Page === undefined ? (
          <AdminPage token={adminToken} onSignIn={signInWithKey} />
        ) : key.value ? (
          <Page key={key.value} apiKey={key.value} />
        ) : (
          <SignInPage
            onKey={key.save}
            onAdminToken={(value, remember) => {
              adminToken.save(value, remember);
              window.location.hash = '#/admin';
            }}
          />
        )}
      </main>
    </ToastProvider>
  );
}
