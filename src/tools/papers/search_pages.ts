/**
 * OpenAlex basic paging has no offset, only `page` and `per_page` (≤ 200). An offset window is served by
 * one page whose size makes the window fit inside it, or else by two consecutive pages of `count`.
 */

/** OpenAlex's largest `per_page`. */
export const MAX_PER_PAGE = 200;

export interface PageSlice {
  page: number;
  perPage: number;
  /** Results of this page before the window starts. */
  skip: number;
  /** Results of this page inside the window. */
  take: number;
}

/**
 * @example openalexPages(10, 20) // [{ page: 1, perPage: 30, skip: 10, take: 20 }]
 */
export function openalexPages(offset: number, count: number): PageSlice[] {
  for (let perPage = count; perPage <= MAX_PER_PAGE; perPage++) {
    const skip = offset % perPage;
    if (skip + count <= perPage) return [{ page: Math.floor(offset / perPage) + 1, perPage, skip, take: count }];
  }
  const first = Math.floor(offset / count) + 1;
  const skip = offset % count;
  return [
    { page: first, perPage: count, skip, take: count - skip },
    { page: first + 1, perPage: count, skip: 0, take: skip },
  ];
}
