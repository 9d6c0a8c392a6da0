// Entry point of the web client.
import { render } from "./render";
import type { Config } from "./config";

/* A block comment
   spanning lines */
const API = "https://api.example.com/v1/*"; // the "/*" in the string is not a comment
const GLOB = '/* still a string */';

export interface User {
  id: number;
  name: string; // display name
}

export class Client {
  constructor(private readonly cfg: Config) {}

  async fetchUser(id: number): Promise<User> {
    // TODO: retry on 503
    const res = await fetch(`${API}/users/${id}`);
    if (!res.ok) {
      throw new Error(`HTTP ${res.status}`);
    }
    return res.json();
  }
}

export function main(): void {
  const c = new Client({ base: API });
  render(c);
}
