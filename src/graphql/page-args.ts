// The page arguments of every list: first (page size) and after (cursor); paging is forward-only.
// REST maps limit → first and offset → after; errors name first and after here, REST renames them.
import { builder } from './builder.ts';
import { DEFAULT_PAGE_SIZE, isOffsetCursor, MAX_PAGE_SIZE } from './pagination.ts';

/** Page arguments whose page size may reach `maxSize` (every list uses MAX_PAGE_SIZE but history). */
export const pageArgsUpTo = (maxSize: number) =>
  builder.args((t) => ({
    first: t.int({
      description: `Page size, 1 to ${maxSize} (default ${DEFAULT_PAGE_SIZE}).`,
      validate: {
        type: 'number',
        int: true,
        min: [1, { message: 'must be at least 1' }],
        max: [maxSize, { message: `must be at most ${maxSize}` }],
      },
    }),
    after: t.string({
      description:
        'Cursor of the last edge already seen in this same list (its pageInfo.endCursor; a cursor of another list is refused); omit for the first page. Paging is forward-only (no last/before): page on while pageInfo.hasNextPage is true.',
      validate: { refine: [isOffsetCursor, { message: 'must be a cursor returned by this API' }] },
    }),
  }));

export const pageArgs = pageArgsUpTo(MAX_PAGE_SIZE);
