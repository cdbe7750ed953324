// hipo's version, for --version and the MCP server's handshake.
export const VERSION = '0.1.0';
