import { describe, expect, it } from 'vitest';
import {
  allocationByOwner,
  type HeapProfileNode,
  ownerOf,
} from '../../../bench/alloc/heap-sampling.ts';

const ROOT = '/srv/gateway';
const node = (
  url: string,
  selfSize: number,
  children: HeapProfileNode[] = [],
): HeapProfileNode => ({
  callFrame: { functionName: 'f', url },
  selfSize,
  children,
});

describe('who allocated', () => {
  it('names a package with its scope, a Node.js module, a file of the project, or code without a script', () => {
    expect(ownerOf(`file://${ROOT}/node_modules/@envelop/core/esm/orchestrator.js`, ROOT)).toBe(
      '@envelop/core',
    );
    // a dependency's own copy of another package is that package
    expect(
      ownerOf(
        `file://${ROOT}/node_modules/graphql-yoga/node_modules/@graphql-tools/utils/esm/index.js`,
        ROOT,
      ),
    ).toBe('@graphql-tools/utils');
    expect(ownerOf(`${ROOT}/node_modules/pg-protocol/dist/parser.js`, ROOT)).toBe('pg-protocol');
    expect(ownerOf('node:_http_outgoing', ROOT)).toBe('node:_http_outgoing');
    expect(ownerOf(`file://${ROOT}/src/gateway/json-lane.ts`, ROOT)).toBe(
      'src/gateway/json-lane.ts',
    );
    expect(ownerOf('', ROOT)).toBe('(compiled or native code)');
  });

  it('sums each owner over the whole call tree and divides by the requests', () => {
    // 4 requests: @envelop/core 2,048 + 1,024 bytes, src/a.ts 1,024, node:events 4,096, root 0
    const head = node('', 0, [
      node(`file://${ROOT}/node_modules/@envelop/core/esm/a.js`, 2_048, [
        node(`file://${ROOT}/src/a.ts`, 1_024, [
          node(`file://${ROOT}/node_modules/@envelop/core/esm/b.js`, 1_024),
        ]),
      ]),
      node('node:events', 4_096),
    ]);
    expect(allocationByOwner(head, 4, ROOT)).toEqual({
      totalBytes: 2_048,
      owners: [
        { owner: 'node:events', bytes: 1_024 },
        { owner: '@envelop/core', bytes: 768 },
        { owner: 'src/a.ts', bytes: 256 },
      ],
    });
  });
});
