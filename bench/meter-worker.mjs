/**
 * Bench only (bench/startup.mjs): a cold-start meter. For each POSTed module set it creates `n` fresh Workers
 * through a Worker Loader binding, each under a unique id so none is reused, whose main module does
 * `await import(<main>)`, and sends each one request. workerd compiles (legacy module registry: every module
 * of the set), instantiates and evaluates the Worker in that request, which is what a cold start costs; the
 * bench reads workerd's CPU time around each batch from /proc. An empty set (no main) is the floor: an
 * isolate and one trivial request. Served by `wrangler dev --config bench/wrangler.meter.toml`; never deployed.
 */
export default {
  async fetch(request, env) {
    const { modules = {}, main, flags = [], n = 10, date = "2026-11-01" } = await request.json();
    const harness = main
      ? `export default { async fetch() { await import(${JSON.stringify(`./${main}`)}); return new Response("ok"); } };`
      : `export default { fetch() { return new Response("ok"); } };`;
    const all = { "__harness.js": harness, ...modules };
    for (let i = 0; i < n; i++) {
      const worker = env.LOADER.get(`cold-${crypto.randomUUID()}`, () => ({
        compatibilityDate: date,
        compatibilityFlags: flags,
        mainModule: "__harness.js",
        modules: all,
      }));
      const response = await worker.getEntrypoint().fetch("http://meter/");
      const body = await response.text();
      if (response.status !== 200) return new Response(`cold start ${i}: ${response.status} ${body.slice(0, 500)}`, { status: 500 });
    }
    return Response.json({ ok: true, n });
  },
};
