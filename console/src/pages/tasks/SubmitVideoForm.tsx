import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { ProblemNotice } from '../../components/ProblemNotice';
import { toProblem, type GatewayProblem } from '../../lib/gateway-problem';
import { GRAPHQL_PATH } from '../../lib/graphql-request';
import { restRequest } from '../../lib/rest-request';
import { useGraphqlQuery } from '../../lib/use-graphql-query';

const VIDEO_MODELS = `query ConsoleVideoModels { catalog(endpointType: "videos") { id } }`;

/**
 * A test video task: `POST /v1/videos` with a model and a prompt, every
 * other field at the model's default. On the built-in simulator,
 * `[sim gen_ms=1500]` in the prompt sets how long the video takes.
 */
export function SubmitVideoForm({ apiKey, onSubmitted }: { apiKey: string; onSubmitted(id: string): void }) {
  const models = useGraphqlQuery<{ catalog: Array<{ id: string }> }>({ path: GRAPHQL_PATH, secret: apiKey }, VIDEO_MODELS);
  const [model, setModel] = useState('');
  const [prompt, setPrompt] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<GatewayProblem>();
  const choices = models.data?.catalog.map((m) => m.id) ?? [];
  const chosen = model || choices[0] || '';

  const submit = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const res = await restRequest('/v1/videos', apiKey, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: chosen, prompt }),
      });
      const body = (await res.json()) as { id?: string; request_id?: string };
      const id = body.id ?? body.request_id;
      if (id) onSubmitted(id);
      setPrompt('');
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="card inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2>Submit a test video task</h2>
      <div class="fields">
        <Field label="Model">
          {(id) => (
            <select id={id} value={chosen} onChange={(event) => setModel(event.currentTarget.value)} disabled={choices.length === 0}>
              {choices.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Prompt" grow>
          {(id) => (
            <input id={id} type="text" required maxLength={10_000} value={prompt} placeholder="A lighthouse at dusk [sim gen_ms=1500]" onInput={(event) => setPrompt(event.currentTarget.value)} />
          )}
        </Field>
        <button type="submit" disabled={busy || !chosen}>
          {busy ? 'Submitting…' : 'Submit task'}
        </button>
      </div>
      <ProblemNotice problem={problem ?? models.problem} />
    </form>
  );
}
