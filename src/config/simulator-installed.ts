/** Whether this install has the built-in simulator (`@model-gateway/simulator`, a development dependency the production image leaves out). */
export function simulatorInstalled(): boolean {
  try {
    require.resolve('@model-gateway/simulator');
    return true;
  } catch {
    return false;
  }
}
