// serveWorkerd runs `workerd serve` on dir/config.capnp (its socket on
// 127.0.0.1:0) and returns the port it bound, how to stop it, and log(),
// what workerd has written to stderr so far (for a failed request's
// message: workerd may reset a connection and say why only there); stop
// also removes dir, which the caller made for this one server.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export async function serveWorkerd(workerd, dir) {
  const p = spawn(workerd, ['serve', join(dir, 'config.capnp'), '--control-fd', '3'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const stop = () => {
    p.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  let stderr = '';
  p.stderr.on('data', (d) => { stderr += d; });
  try {
    const port = await new Promise((resolve, reject) => {
      let buf = '';
      p.stdio[3].on('data', (d) => {
        buf += d;
        const m = /"port":(\d+)/.exec(buf);
        if (m) resolve(Number(m[1]));
      });
      p.on('exit', (code) => reject(new Error(`workerd exited (${code}): ${stderr}`)));
    });
    return { port, stop, log: () => stderr };
  } catch (e) {
    stop();
    throw e;
  }
}
