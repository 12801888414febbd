import { inputAsItems, listedInputItems } from './stored-input-items';

describe('stored input items', () => {
  it('replay a string input as one user message, and items as they were sent', () => {
    expect(inputAsItems('Hi')).toEqual([{ role: 'user', content: 'Hi' }]);
    const items = [{ type: 'function_call_output' as const, call_id: 'c1', output: '{}' }];
    expect(inputAsItems(items)).toBe(items);
  });

  it("are listed typed, with text parts and ids made from the response's id where the client gave none", () => {
    const listed = listedInputItems('resp_abc', [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { type: 'function_call', id: 'fc_client', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: '{}' },
    ]);
    expect(listed).toEqual([
      { id: 'msg_abc_0', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
      { id: 'msg_abc_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] },
      { id: 'fc_client', type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { id: 'fco_abc_3', type: 'function_call_output', call_id: 'c1', output: '{}' },
    ]);
    expect(listedInputItems('resp_abc', 'Hi')[0]!.id).toBe('msg_abc_0');
  });
});
