// V8's sampling heap profiler over the inspector protocol, keeping the samples of objects the GC has
// already collected: what a process allocated while `during` ran, not what it still holds. Bytes
// allocated are steady from run to run on a machine whose CPU timings are not (bench/alloc/run.ts).

/** A node of the profile's call tree (the DevTools protocol's SamplingHeapProfileNode). */
export interface HeapProfileNode {
  callFrame: { functionName: string; url: string };
  /** bytes sampled as allocated by this frame itself */
  selfSize: number;
  children: HeapProfileNode[];
}

/** one sample per this many bytes allocated, on average */
const SAMPLING_INTERVAL_BYTES = 1024;

/** Samples the allocations of the process whose inspector listens on `port` while `during` runs. */
export async function sampleAllocations<T>(
  port: number,
  during: () => Promise<T>,
): Promise<{ result: T; head: HeapProfileNode }> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  if (!target) throw new Error(`no inspector target on port ${port}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let lastId = 0;
  const pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id === undefined) return;
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, (message) =>
        message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result),
      );
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('HeapProfiler.enable');
    await send('HeapProfiler.startSampling', {
      samplingInterval: SAMPLING_INTERVAL_BYTES,
      includeObjectsCollectedByMinorGC: true,
      includeObjectsCollectedByMajorGC: true,
    });
    const result = await during();
    const { profile } = (await send('HeapProfiler.stopSampling')) as {
      profile: { head: HeapProfileNode };
    };
    return { result, head: profile.head };
  } finally {
    socket.close();
  }
}

/**
 * Who allocated: a package under node_modules (its name, with its scope), a Node.js module
 * (`node:…`), a file of this project (its path from `root`), or code with no script of its own
 * (graphql-jit's compiled queries, V8's builtins).
 */
export function ownerOf(url: string, root: string): string {
  if (url === '') return '(compiled or native code)';
  const inModules = url.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const [first = '', second = ''] = url.slice(inModules + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (url.startsWith('node:')) return url;
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** Bytes allocated a request, by owner, largest first. */
export function allocationByOwner(
  head: HeapProfileNode,
  requests: number,
  root: string,
): { totalBytes: number; owners: Array<{ owner: string; bytes: number }> } {
  const bytes = new Map<string, number>();
  let total = 0;
  const visit = (node: HeapProfileNode) => {
    if (node.selfSize > 0) {
      const owner = ownerOf(node.callFrame.url, root);
      bytes.set(owner, (bytes.get(owner) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) visit(child);
  };
  visit(head);
  return {
    totalBytes: total / requests,
    owners: [...bytes]
      .map(([owner, sum]) => ({ owner, bytes: sum / requests }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}
