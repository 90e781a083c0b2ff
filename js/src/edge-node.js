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

/**
 * nodeListener adapts a fetch handler to node:http's (req, res). The
 * Request's signal aborts when the client goes away before its answer.
 */
export function nodeListener(fetch) {
  return async (req, res) => {
    try {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const gone = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      const request = new Request(requestURL(req), {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
        body: hasBody ? Readable.toWeb(req) : undefined,
        duplex: hasBody ? 'half' : undefined,
        signal: gone.signal,
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

// requestURL is the URL of a request as the runtimes that call a fetch
// handler make it: the target appended to the origin, so that a path such
// as //x/healthz stays a path (new URL(target, base) would read x as a
// host), and an absolute target as it is; a Host that is not a host name
// is left out, so that it cannot move the path.
function requestURL(req) {
  const host = req.headers.host ?? '';
  const origin = `http://${/^[\w.:[\]-]+$/.test(host) ? host : 'localhost'}`;
  return req.url.startsWith('/') ? new URL(origin + req.url) : new URL(req.url, origin);
}
