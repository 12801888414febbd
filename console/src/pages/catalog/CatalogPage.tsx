import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { ProblemNotice } from '../../components/ProblemNotice';
import { GRAPHQL_PATH } from '../../lib/graphql-request';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { CATALOG_QUERY, ENDPOINT_TYPES, type CatalogEntry } from './catalog-entry';
import { CatalogTable } from './CatalogTable';

/** Catalog: the models the key may use, by endpoint type and name, with endpoints, modes and prices. */
export function CatalogPage({ apiKey }: { apiKey: string }) {
  const [endpointType, setEndpointType] = useState('');
  const [search, setSearch] = useState('');
  const catalog = useGraphqlQuery<{ catalog: CatalogEntry[] }>({ path: GRAPHQL_PATH, secret: apiKey }, CATALOG_QUERY, { endpointType: endpointType || null });
  const needle = search.trim().toLowerCase();
  const entries = (catalog.data?.catalog ?? []).filter((m) => !needle || m.id.toLowerCase().includes(needle) || m.family.toLowerCase().includes(needle));
  const version = catalog.data?.catalog[0]?.pricing.version;
  return (
    <section aria-labelledby="catalog-title">
      <header class="page-header">
        <h1 id="catalog-title">Catalog</h1>
        {version !== undefined && <span class="muted">price table version {version}</span>}
      </header>
      <form class="card filters" aria-label="Catalog filters" onSubmit={(event) => event.preventDefault()}>
        <div class="fields">
          <Field label="Endpoint type">
            {(id) => (
              <select id={id} value={endpointType} onChange={(event) => setEndpointType(event.currentTarget.value)}>
                <option value="">every type</option>
                {ENDPOINT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Search" grow>
            {(id) => <input id={id} type="search" value={search} placeholder="model or family" onInput={(event) => setSearch(event.currentTarget.value)} />}
          </Field>
        </div>
      </form>
      <ProblemNotice problem={catalog.problem} />
      {catalog.data && <CatalogTable entries={entries} />}
    </section>
  );
}
