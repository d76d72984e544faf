export async function benchNetwork(): Promise<void> {}
