import { onCleanup } from './cleanup';
import type { BenchContext } from './context';
import { createTarget, type RequestSpec, type Target } from './load';
import { against } from './context';
import { chatRequest, errorsCell, errorsCheck, measure, of, perRequest, targetJson, type Phase } from './phases';
import { startMcpEchoProcess } from './processes';
import { round, summarize } from './stats';
import { fmt } from './table';

/**
 * What the MCP gateway adds to a `tools/call`: one connection, sequential,
 * alternating between `/mcp` on the gateway (key check, allowlist, rate
 * limits, the call's usage record, then the upstream call on the session
 * the gateway keeps) and the same MCP server called directly
 * (mcp-echo-server.ts, its own process). Beside it, in the window before,
 * chat completions at one connection alternating with the simulator: the
 * gateway's CPU per tools/call is judged against chat's (within 10 %). The server is added to the
 * catalog through the admin API, as an operator would. Each call through
 * the gateway leaves one usage record, counted with the others at the end.
 */

const SERVER = 'bench';
const TEXT = 'bench-call';

function toolCall(name: string): RequestSpec {
  return {
    method: 'POST',
    path: '/mcp',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { text: TEXT } } }),
    stream: false,
    validate: (text) => (text.includes('"result"') && text.includes(TEXT) ? undefined : `not the tool's answer: ${text.slice(0, 200)}`),
  };
}

async function addServer(ctx: BenchContext, url: string): Promise<void> {
  const res = await fetch(`${ctx.gateway.url}/api/admin/mcp/servers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.gatewayEnv.GATEWAY_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: SERVER, url, private: true }),
  });
  if (res.status !== 201) throw new Error(`the gateway refused the bench's MCP server: HTTP ${res.status} ${await res.text()}`);
}

export const mcpToolCall: Phase = {
  id: 'mcp_tool_call',
  async run(ctx) {
    const echo = await startMcpEchoProcess();
    const stopEcho = onCleanup(() => echo.handle.stop(5_000));
    const mcpHeaders = { accept: 'application/json, text/event-stream' };
    // Named as variants of the gateway's target, so that their usage records are counted with the others.
    const viaGateway = createTarget(`${ctx.viaGateway.name} (mcp)`, ctx.gateway.url, { ...ctx.viaGateway.headers, ...mcpHeaders }, 1);
    const direct = createTarget('direct (mcp)', new URL(echo.url).origin, mcpHeaders, 1);
    const closePools = onCleanup(() => Promise.all([viaGateway.pool.destroy(), direct.pool.destroy()]));
    try {
      await addServer(ctx, echo.url);
      const request = (target: Target) => toolCall(target === viaGateway ? `${SERVER}__echo` : 'echo');
      const chat = await measure(ctx, 'mcp reference: chat 1 conn', { targets: [ctx.viaGateway, ctx.direct], connections: 1, request: chatRequest(ctx, false) });
      const chatCpu = perRequest(chat.gatewayCpuMs, of(chat.result, ctx.viaGateway));
      const m = await measure(ctx, 'mcp tools/call 1 conn', { targets: [viaGateway, direct], connections: 1, request });
      const g = of(m.result, viaGateway);
      const d = of(m.result, direct);
      const gl = summarize(g.latencyMs);
      const dl = summarize(d.latencyMs);
      const cpu = perRequest(m.gatewayCpuMs, g);
      const { report } = ctx;
      report.section('MCP tools/call, 1 connection (sequential, alternating gateway /mcp and the MCP server directly)');
      report.row('requests', fmt.int(g.requests), fmt.int(d.requests));
      report.row('latency p50 / p99', fmt.pair(gl.p50, gl.p99), fmt.pair(dl.p50, dl.p99), fmt.signedPair(gl.p50 - dl.p50, gl.p99 - dl.p99));
      const ratio = cpu / chatCpu - 1;
      report.row('gateway CPU per tools/call (beside: chat, 1 conn)', fmt.ms(cpu, 3), `chat ${fmt.ms(chatCpu, 3)}`, `${ratio >= 0 ? '+' : ''}${(100 * ratio).toFixed(1)} %`, 'within 10 % of chat', against(ratio, 0.1, true));
      report.row('errors (non-2xx + failed)', errorsCell(g, of(chat.result, ctx.viaGateway)), errorsCell(d, of(chat.result, ctx.direct)), '', '0', errorsCheck(g, d, of(chat.result, ctx.viaGateway), of(chat.result, ctx.direct)));
      report.json[this.id] = {
        connections: 1,
        seconds: ctx.settings.seconds,
        added_p50_ms: round(gl.p50 - dl.p50, 3),
        added_p99_ms: round(gl.p99 - dl.p99, 3),
        gateway: targetJson(g, { cpu_ms_per_request: round(cpu, 4) }),
        chat_cpu_ms_per_request_1_conn: round(chatCpu, 4),
        cpu_vs_chat: round(ratio, 4),
        direct: targetJson(d),
      };
    } finally {
      await closePools();
      await stopEcho();
    }
  },
};
