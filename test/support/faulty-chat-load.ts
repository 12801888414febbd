/**
 * `count` chat calls at once from one key, of every kind that ends a call
 * some way other than a plain answer: streamed and not, upstream 500s and
 * 529s, a stream the upstream cuts, clients that leave mid-stream or before
 * a slow answer. Resolves when every call has ended (answered, failed or
 * abandoned); the spend tests then check that the money still adds up.
 */
export async function faultyChatLoad(url: string, key: string, count = 70): Promise<void> {
  const send = (content: string, stream: boolean, abortAfterMs?: number) => {
    const controller = new AbortController();
    if (abortAfterMs !== undefined) setTimeout(() => controller.abort(), abortAfterMs);
    return fetch(`${url}/v1/chat/completions`, {
      method: 'POST', signal: controller.signal,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content }], max_tokens: 300, stream }),
    }).then((res) => res.text()).catch(() => 'aborted');
  };
  const kinds = [
    (i: number) => send(`Plain ${i}`, false),
    (i: number) => send(`Streamed ${i}`, true),
    (i: number) => send(`Fails ${i} [sim status=500]`, false),
    (i: number) => send(`Overloaded ${i} [sim status=529]`, true),
    (i: number) => send(`Cut ${i} [sim words=200 pace=2 cut_after=3]`, true),
    (i: number) => send(`Leaves ${i} [sim words=300 pace=5]`, true, 60),
    (i: number) => send(`Slow ${i} [sim latency=400]`, false, 100),
  ];
  await Promise.all(Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!(i)));
}
