// tokenfit/edge in Node, Deno and Bun (the "node" export condition):
// createHandler over node.js's init(), which reads the module and tables
// from the package, and nodeListener, which serves a fetch handler with
// node:http.
//
//   import http from 'node:http';
//   import { createHandler, nodeListener } from 'tokenfit/edge';
//   http.createServer(nodeListener(createHandler())).listen(8787, '127.0.0.1');

import { Readable } from 'node:stream';
import { init } from './node.js';
import { makeCreateHandler } from './serve.js';

/** The JSON API over HTTP as a fetch handler: see index.d.ts. */
export const createHandler = makeCreateHandler(init);

/** nodeListener adapts a fetch handler to node:http's (req, res). */
export function nodeListener(fetch) {
  return async (req, res) => {
    try {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(new URL(req.url, `http://${req.headers.host || 'localhost'}`), {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
        body: hasBody ? Readable.toWeb(req) : undefined,
        duplex: hasBody ? 'half' : undefined,
      });
      const response = await fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
      if (response.headers.get('Connection') === 'close') req.destroy();
    } catch (e) {
      res.destroy(e);
    }
  };
}
