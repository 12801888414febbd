-- MCP tools a key may use through /mcp (a JSON array of names or patterns; NULL: every tool).
ALTER TABLE "api_keys" ADD COLUMN "allowed_mcp_tools" JSONB;

-- MCP tool calls: the server and tool called, and how the server answered.
ALTER TABLE "usage_records" ADD COLUMN "mcp" JSONB;
