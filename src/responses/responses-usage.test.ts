import { StreamedStrings } from '../providers/streamed-json-body';
import { dataUrlStream } from './data-url-stream';
import type { ResponsesRequest } from './responses-request-schema';
import { estimateResponsesUsage } from './responses-usage';

describe("the local estimate of a native Responses call's usage", () => {
  it('counts a file streamed into the body by its full base64, as it counts one held inline', async () => {
    const bytes = 3 * 1024 * 1024;
    const inline = `data:application/pdf;base64,${Buffer.alloc(bytes).toString('base64')}`;
    const streamed = new StreamedStrings();
    const placeholder = streamed.placeholder(dataUrlStream('application/pdf', bytes, async function* () {}));
    const request = (fileData: string) => ({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: fileData }] }] }) as unknown as ResponsesRequest;

    const held = estimateResponsesUsage(request(inline), '', 'openai');
    const sent = estimateResponsesUsage(request(placeholder), '', 'openai', streamed);
    expect(sent.promptTokens).toBe(held.promptTokens);
    expect(sent.promptTokens).toBeGreaterThan(bytes / 3);
  });
});
