export interface NavItem<R extends string> {
  route: R;
  label: string;
}

/** The page links (hash routes), the current one marked for assistive technology too. */
export function Nav<R extends string>({ items, current }: { items: ReadonlyArray<NavItem<R>>; current: R }) {
  return (
    <nav aria-label="Console pages">
      <ul class="nav">
        {items.map((item) => (
          <li key={item.route}>
            <a href={`#/${item.route}`} aria-current={item.route === current ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
