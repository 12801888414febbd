import type { CursorPages } from '../lib/use-cursor-pages';

/** Previous and Next buttons under a paged table; Next needs the page's `endCursor` and `hasNextPage`. */
export function CursorPager({ pages, pageInfo, label }: { pages: CursorPages; pageInfo: { endCursor: string | null; hasNextPage: boolean } | undefined; label: string }) {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" class="secondary" disabled={pages.number === 1} onClick={pages.previous}>
        Previous
      </button>
      <span>Page {pages.number}</span>
      <button
        type="button"
        class="secondary"
        disabled={!pageInfo?.hasNextPage || !pageInfo.endCursor}
        onClick={() => pageInfo?.endCursor && pages.next(pageInfo.endCursor)}
      >
        Next
      </button>
    </nav>
  );
}
