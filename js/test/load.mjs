// A bounded load generator for a test server on loopback: `connections`
// clients, each on its own keep-alive connection, each sending `perConnection`
// requests one after another (so at most `connections` are in flight), every
// answer judged. runtimes.test.mjs runs it against the workerd worker.
import http from 'node:http';

/**
 * load sends connections × perConnection requests to 127.0.0.1:port.
 * request(i) returns the i-th request: { path, body, judge(status, answer)
 * → why it is wrong, or null }. An answer that is not JSON, a transport
 * error or a wrong answer is an error.
 *
 * Returns { requests, connections, errors (count), firstErrors (up to 10),
 * seconds, perSecond, p50, p99 (ms) }.
 */
export async function load({ port, connections, perConnection, request }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const firstErrors = [];
  let errors = 0;
  const fail = (why) => {
    errors++;
    if (firstErrors.length < 10) firstErrors.push(why);
  };
  const send = (r) => new Promise((resolve) => {
    const body = Buffer.from(r.body);
    const req = http.request({ host: '127.0.0.1', port, path: r.path, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => resolve({ error: e }));
    });
    req.on('error', (e) => resolve({ error: e }));
    req.end(body);
  });
  const client = async (c) => {
    for (let k = 0; k < perConnection; k++) {
      const i = c * perConnection + k;
      const r = request(i);
      const t0 = performance.now();
      const got = await send(r);
      latencies.push(performance.now() - t0);
      if (got.error) {
        fail(`${i} ${r.path}: ${got.error.message}`);
        continue;
      }
      let answer;
      try {
        answer = JSON.parse(got.text);
      } catch {
        fail(`${i} ${r.path}: ${got.status} ${got.text.slice(0, 200)}`);
        continue;
      }
      const why = r.judge(got.status, answer);
      if (why) fail(`${i} ${r.path}: ${why}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, (_, c) => client(c)));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 100) / 100;
  const requests = connections * perConnection;
  return { requests, connections, errors, firstErrors, seconds, perSecond: Math.round(requests / seconds), p50: at(0.5), p99: at(0.99) };
}
