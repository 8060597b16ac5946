export async function run(argv: string[]): Promise<number> {
  void argv;
  return 0;
}
