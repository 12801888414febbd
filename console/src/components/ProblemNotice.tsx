import type { GatewayProblem } from '../lib/gateway-problem';

/**
 * An error from the gateway, in its own words, with the error code and the
 * request id (what to quote to the operator, who finds the request's log
 * lines and usage record by it).
 */
export function ProblemNotice({ problem, onDismiss }: { problem: GatewayProblem | undefined; onDismiss?: () => void }) {
  if (!problem) return null;
  return (
    <div class="problem" role="alert">
      <p class="problem-message">{problem.message}</p>
      {(problem.code || problem.requestId) && (
        <dl class="problem-facts">
          {problem.code && (
            <>
              <dt>code</dt>
              <dd>
                <code>{problem.code}</code>
              </dd>
            </>
          )}
          {problem.requestId && (
            <>
              <dt>request id</dt>
              <dd>
                <code>{problem.requestId}</code>
              </dd>
            </>
          )}
        </dl>
      )}
      {onDismiss && (
        <button type="button" class="link-button" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}
