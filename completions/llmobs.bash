# Shell completion for llmobs. Generated from the command tree by `npm run completions`; do not edit.
# Install: copy to ~/.local/share/bash-completion/completions/llmobs, or source it from ~/.bashrc.

# __llmobs_child PATH WORD: the command path WORD leads to from PATH, or nothing.
__llmobs_child() {
  case "$1|$2" in
    '|profile') __llmobs_r='profile' ;;
    '|models') __llmobs_r='models' ;;
    '|prompts'|'|prompt') __llmobs_r='prompts' ;;
    '|labels'|'|label') __llmobs_r='labels' ;;
    '|tokens') __llmobs_r='tokens' ;;
    '|estimate') __llmobs_r='estimate' ;;
    '|traces') __llmobs_r='traces' ;;
    '|observations') __llmobs_r='observations' ;;
    '|export') __llmobs_r='export' ;;
    '|cost') __llmobs_r='cost' ;;
    '|health') __llmobs_r='health' ;;
    '|projects') __llmobs_r='projects' ;;
    '|whoami') __llmobs_r='whoami' ;;
    '|doctor') __llmobs_r='doctor' ;;
    '|api') __llmobs_r='api' ;;
    '|completion') __llmobs_r='completion' ;;
    '|server') __llmobs_r='server' ;;
    '|help') __llmobs_r='help' ;;
    '|version') __llmobs_r='version' ;;
    'profile|add') __llmobs_r='profile add' ;;
    'profile|list'|'profile|ls') __llmobs_r='profile list' ;;
    'profile|show') __llmobs_r='profile show' ;;
    'profile|use') __llmobs_r='profile use' ;;
    'profile|remove'|'profile|rm') __llmobs_r='profile remove' ;;
    'profile|test') __llmobs_r='profile test' ;;
    'models|list'|'models|ls') __llmobs_r='models list' ;;
    'models|get') __llmobs_r='models get' ;;
    'models|create') __llmobs_r='models create' ;;
    'models|update') __llmobs_r='models update' ;;
    'models|delete'|'models|rm') __llmobs_r='models delete' ;;
    'models|pull') __llmobs_r='models pull' ;;
    'models|status') __llmobs_r='models status' ;;
    'models|push') __llmobs_r='models push' ;;
    'models|match') __llmobs_r='models match' ;;
    'models|lint') __llmobs_r='models lint' ;;
    'prompts|create') __llmobs_r='prompts create' ;;
    'prompts|get') __llmobs_r='prompts get' ;;
    'prompts|list'|'prompts|ls') __llmobs_r='prompts list' ;;
    'prompts|versions') __llmobs_r='prompts versions' ;;
    'prompts|compile') __llmobs_r='prompts compile' ;;
    'prompts|diff') __llmobs_r='prompts diff' ;;
    'prompts|pull') __llmobs_r='prompts pull' ;;
    'prompts|status') __llmobs_r='prompts status' ;;
    'prompts|push') __llmobs_r='prompts push' ;;
    'prompts|copy') __llmobs_r='prompts copy' ;;
    'prompts|delete'|'prompts|rm') __llmobs_r='prompts delete' ;;
    'labels|list'|'labels|ls') __llmobs_r='labels list' ;;
    'labels|set') __llmobs_r='labels set' ;;
    'labels|promote') __llmobs_r='labels promote' ;;
    'labels|remove'|'labels|rm') __llmobs_r='labels remove' ;;
    'tokens|count') __llmobs_r='tokens count' ;;
    'traces|get') __llmobs_r='traces get' ;;
    'traces|list'|'traces|ls') __llmobs_r='traces list' ;;
    'observations|list'|'observations|ls') __llmobs_r='observations list' ;;
    'observations|export') __llmobs_r='observations export' ;;
    'export|blob') __llmobs_r='export blob' ;;
    'export|integration') __llmobs_r='export integration' ;;
    'cost|report') __llmobs_r='cost report' ;;
    'cost|recompute') __llmobs_r='cost recompute' ;;
    'server|link') __llmobs_r='server link' ;;
    *) __llmobs_r='' ;;
  esac
}

# __llmobs_children PATH: subcommand names and aliases.
__llmobs_children() {
  case "$1" in
    '') __llmobs_r='profile models prompts prompt labels label tokens estimate traces observations export cost health projects whoami doctor api completion server help version' ;;
    'profile') __llmobs_r='add list ls show use remove rm test' ;;
    'models') __llmobs_r='list ls get create update delete rm pull status push match lint' ;;
    'prompts') __llmobs_r='create get list ls versions compile diff pull status push copy delete rm' ;;
    'labels') __llmobs_r='list ls set promote remove rm' ;;
    'tokens') __llmobs_r='count' ;;
    'traces') __llmobs_r='get list ls' ;;
    'observations') __llmobs_r='list ls export' ;;
    'export') __llmobs_r='blob integration' ;;
    'cost') __llmobs_r='report recompute' ;;
    'server') __llmobs_r='link' ;;
    *) __llmobs_r='' ;;
  esac
}

# __llmobs_options PATH: every option a command takes.
__llmobs_options() {
  case "$1" in
    '') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'profile') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'profile add') __llmobs_r='--region --public-key --secret-key-stdin --api-key-stdin --default --force -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'profile list') __llmobs_r='--names -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'profile show') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'profile use') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'profile remove') __llmobs_r='--yes -y -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'profile test') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models list') __llmobs_r='--limit --all --page --custom --managed --offline -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models get') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models create') __llmobs_r='--name --match-pattern --tokenizer --tokenizer-model --tokens-per-message --tokens-per-name --tokenization-config --price --unit --start-date --file --strict --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models update') __llmobs_r='--name --match-pattern --tokenizer --tokenizer-model --tokens-per-message --tokens-per-name --tokenization-config --price --unit --start-date --file --strict --dry-run --remove-price --recreate -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models delete') __llmobs_r='--yes -y -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models pull') __llmobs_r='--file --force -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models status') __llmobs_r='--file --prune --exit-code -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models push') __llmobs_r='--file --prune --recreate --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models match') __llmobs_r='--offline --remote --models-file --expect -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'models lint') __llmobs_r='--offline --models-file --strict -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts create') __llmobs_r='--text --file --chat-file --type --label -l --config --config-file --commit-message -m --tag --clear-tags --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts get') __llmobs_r='--version --label --raw --no-resolve -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts list') __llmobs_r='--name --label --tag --from-updated-at --to-updated-at --limit --all --page -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts versions') __llmobs_r='--limit -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts compile') __llmobs_r='--version --label --var --vars-file --placeholder --strict -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts diff') __llmobs_r='--context -U --exit-code -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts pull') __llmobs_r='--dir --label --version --force -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts status') __llmobs_r='--dir --label -l --exit-code -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts push') __llmobs_r='--dir --label -l --message -m --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts copy') __llmobs_r='--all --to-profile --from-profile --label -l --all-versions --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'prompts delete') __llmobs_r='--version --label --yes -y -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'labels') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'labels list') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'labels set') __llmobs_r='--version --expect-current --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'labels promote') __llmobs_r='--from --to --expect-current --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'labels remove') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'tokens') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'tokens count') __llmobs_r='--file --model --encoding --offline --remote --models-file -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'estimate') __llmobs_r='--model --input --input-file --output --output-file --usage --usage-file --cost --model-parameters --metadata --level --explain --offline --remote --models-file --batch -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'traces') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'traces get') __llmobs_r='--io --wait --max-observations -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'traces list') __llmobs_r='--name --user --session --tag --environment --release --version --from --to --order-by --limit --all --page -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'observations') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'observations list') __llmobs_r='--type --name --trace --user --session --environment --level --version --from --to --limit --all --fields --format --output -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'observations export') __llmobs_r='--type --name --trace --user --session --environment --level --version --from --to --output --format --fields --limit --page-size --expand-metadata --resume --force -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'export') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'export blob') __llmobs_r='--format --no-gzip --interval --from --fields --tables --endpoint --region --force-path-style --max-windows --page-size --dry-run -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'export integration') __llmobs_r='--bucket --type --endpoint --region --access-key-id --secret-access-key-stdin --prefix --interval --format --no-gzip --from --fields --force-path-style --disabled --yes -y -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'cost') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'cost report') __llmobs_r='--from --to --month --by --type --environment --budget --no-cache -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'cost recompute') __llmobs_r='--input --type --name --trace --user --session --environment --level --version --from --to --month --limit --models-file --offline --remote --ignore-start-dates --output -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'health') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'projects') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'whoami') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'doctor') __llmobs_r='--check-regions --no-check-regions -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'api') __llmobs_r='--method -X --field -f --typed-field -F --header -H --input --paginate --include -i --silent --curl -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'completion') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'server') __llmobs_r='--port --host --data-dir --ephemeral --bearer-secret-key --write-mode --ui-port --no-ui --blob-export --format --no-gzip --interval --from --fields --tables --endpoint --region --force-path-style -V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'server link') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'help') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    'version') __llmobs_r='-V --profile --base-url --json --jq -q --csv --headers --no-headers --verbose --no-color --timeout --retries --max-pages --help -h' ;;
    *) __llmobs_r='' ;;
  esac
}

# __llmobs_value PATH OPTION: what the option takes (nothing for a flag or an unknown option).
__llmobs_value() {
  case "$1|$2" in
    '|--profile') __llmobs_r='@profiles' ;;
    '|--base-url') __llmobs_r='@any' ;;
    '|--jq'|'|-q') __llmobs_r='@any' ;;
    '|--timeout') __llmobs_r='@any' ;;
    '|--retries') __llmobs_r='@any' ;;
    '|--max-pages') __llmobs_r='@any' ;;
    'profile add|--region') __llmobs_r='eu us jp hipaa' ;;
    'profile add|--public-key') __llmobs_r='@any' ;;
    'models list|--limit') __llmobs_r='@any' ;;
    'models list|--page') __llmobs_r='@any' ;;
    'models create|--name') __llmobs_r='@any' ;;
    'models create|--match-pattern') __llmobs_r='@any' ;;
    'models create|--tokenizer') __llmobs_r='openai claude none' ;;
    'models create|--tokenizer-model') __llmobs_r='@any' ;;
    'models create|--tokens-per-message') __llmobs_r='@any' ;;
    'models create|--tokens-per-name') __llmobs_r='@any' ;;
    'models create|--tokenization-config') __llmobs_r='@any' ;;
    'models create|--price') __llmobs_r='@any' ;;
    'models create|--unit') __llmobs_r='TOKENS CHARACTERS MILLISECONDS SECONDS REQUESTS IMAGES' ;;
    'models create|--start-date') __llmobs_r='@any' ;;
    'models create|--file') __llmobs_r='@files' ;;
    'models update|--name') __llmobs_r='@any' ;;
    'models update|--match-pattern') __llmobs_r='@any' ;;
    'models update|--tokenizer') __llmobs_r='openai claude none' ;;
    'models update|--tokenizer-model') __llmobs_r='@any' ;;
    'models update|--tokens-per-message') __llmobs_r='@any' ;;
    'models update|--tokens-per-name') __llmobs_r='@any' ;;
    'models update|--tokenization-config') __llmobs_r='@any' ;;
    'models update|--price') __llmobs_r='@any' ;;
    'models update|--unit') __llmobs_r='TOKENS CHARACTERS MILLISECONDS SECONDS REQUESTS IMAGES' ;;
    'models update|--start-date') __llmobs_r='@any' ;;
    'models update|--file') __llmobs_r='@files' ;;
    'models update|--remove-price') __llmobs_r='@any' ;;
    'models pull|--file') __llmobs_r='@files' ;;
    'models status|--file') __llmobs_r='@files' ;;
    'models push|--file') __llmobs_r='@files' ;;
    'models match|--models-file') __llmobs_r='@files' ;;
    'models match|--expect') __llmobs_r='@any' ;;
    'models lint|--models-file') __llmobs_r='@files' ;;
    'prompts create|--text') __llmobs_r='@any' ;;
    'prompts create|--file') __llmobs_r='@files' ;;
    'prompts create|--chat-file') __llmobs_r='@files' ;;
    'prompts create|--type') __llmobs_r='text chat' ;;
    'prompts create|--label'|'prompts create|-l') __llmobs_r='@any' ;;
    'prompts create|--config') __llmobs_r='@any' ;;
    'prompts create|--config-file') __llmobs_r='@files' ;;
    'prompts create|--commit-message'|'prompts create|-m') __llmobs_r='@any' ;;
    'prompts create|--tag') __llmobs_r='@any' ;;
    'prompts get|--version') __llmobs_r='@any' ;;
    'prompts get|--label') __llmobs_r='@any' ;;
    'prompts list|--name') __llmobs_r='@any' ;;
    'prompts list|--label') __llmobs_r='@any' ;;
    'prompts list|--tag') __llmobs_r='@any' ;;
    'prompts list|--from-updated-at') __llmobs_r='@any' ;;
    'prompts list|--to-updated-at') __llmobs_r='@any' ;;
    'prompts list|--limit') __llmobs_r='@any' ;;
    'prompts list|--page') __llmobs_r='@any' ;;
    'prompts versions|--limit') __llmobs_r='@any' ;;
    'prompts compile|--version') __llmobs_r='@any' ;;
    'prompts compile|--label') __llmobs_r='@any' ;;
    'prompts compile|--var') __llmobs_r='@any' ;;
    'prompts compile|--vars-file') __llmobs_r='@files' ;;
    'prompts compile|--placeholder') __llmobs_r='@any' ;;
    'prompts diff|--context'|'prompts diff|-U') __llmobs_r='@any' ;;
    'prompts pull|--dir') __llmobs_r='@dirs' ;;
    'prompts pull|--label') __llmobs_r='@any' ;;
    'prompts pull|--version') __llmobs_r='@any' ;;
    'prompts status|--dir') __llmobs_r='@dirs' ;;
    'prompts status|--label'|'prompts status|-l') __llmobs_r='@any' ;;
    'prompts push|--dir') __llmobs_r='@dirs' ;;
    'prompts push|--label'|'prompts push|-l') __llmobs_r='@any' ;;
    'prompts push|--message'|'prompts push|-m') __llmobs_r='@any' ;;
    'prompts copy|--to-profile') __llmobs_r='@profiles' ;;
    'prompts copy|--from-profile') __llmobs_r='@profiles' ;;
    'prompts copy|--label'|'prompts copy|-l') __llmobs_r='@any' ;;
    'prompts delete|--version') __llmobs_r='@any' ;;
    'prompts delete|--label') __llmobs_r='@any' ;;
    'labels set|--version') __llmobs_r='@any' ;;
    'labels set|--expect-current') __llmobs_r='@any' ;;
    'labels promote|--from') __llmobs_r='@any' ;;
    'labels promote|--to') __llmobs_r='@any' ;;
    'labels promote|--expect-current') __llmobs_r='@any' ;;
    'tokens count|--file') __llmobs_r='@files' ;;
    'tokens count|--model') __llmobs_r='@any' ;;
    'tokens count|--encoding') __llmobs_r='o200k_base cl100k_base p50k_base p50k_edit r50k_base gpt2 claude' ;;
    'tokens count|--models-file') __llmobs_r='@files' ;;
    'estimate|--model') __llmobs_r='@any' ;;
    'estimate|--input') __llmobs_r='@any' ;;
    'estimate|--input-file') __llmobs_r='@files' ;;
    'estimate|--output') __llmobs_r='@any' ;;
    'estimate|--output-file') __llmobs_r='@files' ;;
    'estimate|--usage') __llmobs_r='@any' ;;
    'estimate|--usage-file') __llmobs_r='@files' ;;
    'estimate|--cost') __llmobs_r='@any' ;;
    'estimate|--model-parameters') __llmobs_r='@any' ;;
    'estimate|--metadata') __llmobs_r='@any' ;;
    'estimate|--level') __llmobs_r='DEBUG DEFAULT WARNING ERROR' ;;
    'estimate|--models-file') __llmobs_r='@files' ;;
    'estimate|--batch') __llmobs_r='@files' ;;
    'traces get|--wait') __llmobs_r='@any' ;;
    'traces get|--max-observations') __llmobs_r='@any' ;;
    'traces list|--name') __llmobs_r='@any' ;;
    'traces list|--user') __llmobs_r='@any' ;;
    'traces list|--session') __llmobs_r='@any' ;;
    'traces list|--tag') __llmobs_r='@any' ;;
    'traces list|--environment') __llmobs_r='@any' ;;
    'traces list|--release') __llmobs_r='@any' ;;
    'traces list|--version') __llmobs_r='@any' ;;
    'traces list|--from') __llmobs_r='@any' ;;
    'traces list|--to') __llmobs_r='@any' ;;
    'traces list|--order-by') __llmobs_r='@any' ;;
    'traces list|--limit') __llmobs_r='@any' ;;
    'traces list|--page') __llmobs_r='@any' ;;
    'observations list|--type') __llmobs_r='GENERATION SPAN EVENT AGENT TOOL CHAIN RETRIEVER EVALUATOR EMBEDDING GUARDRAIL' ;;
    'observations list|--name') __llmobs_r='@any' ;;
    'observations list|--trace') __llmobs_r='@any' ;;
    'observations list|--user') __llmobs_r='@any' ;;
    'observations list|--session') __llmobs_r='@any' ;;
    'observations list|--environment') __llmobs_r='@any' ;;
    'observations list|--level') __llmobs_r='DEBUG DEFAULT WARNING ERROR' ;;
    'observations list|--version') __llmobs_r='@any' ;;
    'observations list|--from') __llmobs_r='@any' ;;
    'observations list|--to') __llmobs_r='@any' ;;
    'observations list|--limit') __llmobs_r='@any' ;;
    'observations list|--fields') __llmobs_r='@any' ;;
    'observations list|--format') __llmobs_r='jsonl csv json' ;;
    'observations list|--output') __llmobs_r='@files' ;;
    'observations export|--type') __llmobs_r='GENERATION SPAN EVENT AGENT TOOL CHAIN RETRIEVER EVALUATOR EMBEDDING GUARDRAIL' ;;
    'observations export|--name') __llmobs_r='@any' ;;
    'observations export|--trace') __llmobs_r='@any' ;;
    'observations export|--user') __llmobs_r='@any' ;;
    'observations export|--session') __llmobs_r='@any' ;;
    'observations export|--environment') __llmobs_r='@any' ;;
    'observations export|--level') __llmobs_r='DEBUG DEFAULT WARNING ERROR' ;;
    'observations export|--version') __llmobs_r='@any' ;;
    'observations export|--from') __llmobs_r='@any' ;;
    'observations export|--to') __llmobs_r='@any' ;;
    'observations export|--output') __llmobs_r='@files' ;;
    'observations export|--format') __llmobs_r='jsonl csv json' ;;
    'observations export|--fields') __llmobs_r='@any' ;;
    'observations export|--limit') __llmobs_r='@any' ;;
    'observations export|--page-size') __llmobs_r='@any' ;;
    'observations export|--expand-metadata') __llmobs_r='@any' ;;
    'export blob|--format') __llmobs_r='parquet jsonl csv json' ;;
    'export blob|--interval') __llmobs_r='20m hourly daily weekly' ;;
    'export blob|--from') __llmobs_r='@any' ;;
    'export blob|--fields') __llmobs_r='@any' ;;
    'export blob|--tables') __llmobs_r='@any' ;;
    'export blob|--endpoint') __llmobs_r='@any' ;;
    'export blob|--region') __llmobs_r='eu us jp hipaa' ;;
    'export blob|--max-windows') __llmobs_r='@any' ;;
    'export blob|--page-size') __llmobs_r='@any' ;;
    'export integration|--bucket') __llmobs_r='@any' ;;
    'export integration|--type') __llmobs_r='S3 S3_COMPATIBLE AZURE_BLOB_STORAGE' ;;
    'export integration|--endpoint') __llmobs_r='@any' ;;
    'export integration|--region') __llmobs_r='eu us jp hipaa' ;;
    'export integration|--access-key-id') __llmobs_r='@any' ;;
    'export integration|--prefix') __llmobs_r='@any' ;;
    'export integration|--interval') __llmobs_r='20m hourly daily weekly' ;;
    'export integration|--format') __llmobs_r='parquet jsonl csv json' ;;
    'export integration|--from') __llmobs_r='@any' ;;
    'export integration|--fields') __llmobs_r='@any' ;;
    'cost report|--from') __llmobs_r='@any' ;;
    'cost report|--to') __llmobs_r='@any' ;;
    'cost report|--month') __llmobs_r='@any' ;;
    'cost report|--by') __llmobs_r='@any' ;;
    'cost report|--type') __llmobs_r='GENERATION SPAN EVENT AGENT TOOL CHAIN RETRIEVER EVALUATOR EMBEDDING GUARDRAIL' ;;
    'cost report|--environment') __llmobs_r='@any' ;;
    'cost report|--budget') __llmobs_r='@any' ;;
    'cost recompute|--input') __llmobs_r='@files' ;;
    'cost recompute|--type') __llmobs_r='GENERATION SPAN EVENT AGENT TOOL CHAIN RETRIEVER EVALUATOR EMBEDDING GUARDRAIL' ;;
    'cost recompute|--name') __llmobs_r='@any' ;;
    'cost recompute|--trace') __llmobs_r='@any' ;;
    'cost recompute|--user') __llmobs_r='@any' ;;
    'cost recompute|--session') __llmobs_r='@any' ;;
    'cost recompute|--environment') __llmobs_r='@any' ;;
    'cost recompute|--level') __llmobs_r='DEBUG DEFAULT WARNING ERROR' ;;
    'cost recompute|--version') __llmobs_r='@any' ;;
    'cost recompute|--from') __llmobs_r='@any' ;;
    'cost recompute|--to') __llmobs_r='@any' ;;
    'cost recompute|--month') __llmobs_r='@any' ;;
    'cost recompute|--limit') __llmobs_r='@any' ;;
    'cost recompute|--models-file') __llmobs_r='@files' ;;
    'cost recompute|--output') __llmobs_r='@files' ;;
    'api|--method'|'api|-X') __llmobs_r='GET POST PUT PATCH DELETE HEAD' ;;
    'api|--field'|'api|-f') __llmobs_r='@any' ;;
    'api|--typed-field'|'api|-F') __llmobs_r='@any' ;;
    'api|--header'|'api|-H') __llmobs_r='@any' ;;
    'api|--input') __llmobs_r='@files' ;;
    'server|--port') __llmobs_r='@any' ;;
    'server|--host') __llmobs_r='@any' ;;
    'server|--data-dir') __llmobs_r='@dirs' ;;
    'server|--write-mode') __llmobs_r='@any' ;;
    'server|--ui-port') __llmobs_r='@any' ;;
    'server|--blob-export') __llmobs_r='@any' ;;
    'server|--format') __llmobs_r='parquet jsonl csv json' ;;
    'server|--interval') __llmobs_r='20m hourly daily weekly' ;;
    'server|--from') __llmobs_r='@any' ;;
    'server|--fields') __llmobs_r='@any' ;;
    'server|--tables') __llmobs_r='@any' ;;
    'server|--endpoint') __llmobs_r='@any' ;;
    'server|--region') __llmobs_r='eu us jp hipaa' ;;
    *)
      case "$2" in
        '--profile') __llmobs_r='@profiles' ;;
        '--base-url') __llmobs_r='@any' ;;
        '--jq'|'-q') __llmobs_r='@any' ;;
        '--timeout') __llmobs_r='@any' ;;
        '--retries') __llmobs_r='@any' ;;
        '--max-pages') __llmobs_r='@any' ;;
        *) __llmobs_r='' ;;
      esac ;;
  esac
}

# __llmobs_arg PATH INDEX: what the positional argument at INDEX (from 0) takes.
__llmobs_arg() {
  case "$1|$2" in
    'profile add|0') __llmobs_r='@any' ;;
    'profile show|0') __llmobs_r='@profiles' ;;
    'profile use|0') __llmobs_r='@profiles' ;;
    'profile remove|0') __llmobs_r='@profiles' ;;
    'profile test|0') __llmobs_r='@profiles' ;;
    'models get|0') __llmobs_r='@any' ;;
    'models update|0') __llmobs_r='@any' ;;
    'models delete|0') __llmobs_r='@any' ;;
    'models match|0') __llmobs_r='@any' ;;
    'prompts create|0') __llmobs_r='@any' ;;
    'prompts get|0') __llmobs_r='@any' ;;
    'prompts versions|0') __llmobs_r='@any' ;;
    'prompts compile|0') __llmobs_r='@any' ;;
    'prompts diff|0') __llmobs_r='@any' ;;
    'prompts diff|1') __llmobs_r='@any' ;;
    'prompts diff|2') __llmobs_r='@any' ;;
    'prompts pull|0'|'prompts pull|'[0-9]*) __llmobs_r='@any' ;;
    'prompts status|0'|'prompts status|'[0-9]*) __llmobs_r='@any' ;;
    'prompts push|0'|'prompts push|'[0-9]*) __llmobs_r='@any' ;;
    'prompts copy|0'|'prompts copy|'[0-9]*) __llmobs_r='@any' ;;
    'prompts delete|0') __llmobs_r='@any' ;;
    'labels list|0') __llmobs_r='@any' ;;
    'labels set|0') __llmobs_r='@any' ;;
    'labels set|1') __llmobs_r='@any' ;;
    'labels promote|0') __llmobs_r='@any' ;;
    'labels remove|0') __llmobs_r='@any' ;;
    'labels remove|1') __llmobs_r='@any' ;;
    'tokens count|0') __llmobs_r='@any' ;;
    'traces get|0') __llmobs_r='@any' ;;
    'export blob|0') __llmobs_r='@any' ;;
    'export integration|0') __llmobs_r='@any' ;;
    'export integration|1') __llmobs_r='@any' ;;
    'api|0') __llmobs_r='@any' ;;
    'api|1') __llmobs_r='@any' ;;
    'completion|0') __llmobs_r='bash zsh fish' ;;
    'help|0'|'help|'[0-9]*) __llmobs_r='@commands' ;;
    *) __llmobs_r='' ;;
  esac
}

# __llmobs_walk WORD...: sets __llmobs_path (the command), __llmobs_nargs (positional
# arguments so far), __llmobs_pending (an option still waiting for its value) and
# __llmobs_target (the command named so far by the arguments of help); after "--",
# __llmobs_dashdash is 1 and every word is an argument.
__llmobs_walk() {
  __llmobs_path='' __llmobs_nargs=0 __llmobs_pending='' __llmobs_target='' __llmobs_dashdash=0
  local word
  for word in "$@"; do
    if [ -n "$__llmobs_pending" ]; then __llmobs_pending=''; continue; fi
    if [ $__llmobs_dashdash = 1 ]; then __llmobs_nargs=$((__llmobs_nargs + 1)); continue; fi
    case "$word" in
      --) __llmobs_dashdash=1 ;;
      --*=*) ;;
      -?*)
        __llmobs_value "$__llmobs_path" "$word"
        [ -n "$__llmobs_r" ] && __llmobs_pending=$word ;;
      *)
        __llmobs_r=''
        [ $__llmobs_nargs = 0 ] && __llmobs_child "$__llmobs_path" "$word"
        if [ -n "$__llmobs_r" ]; then __llmobs_path=$__llmobs_r; else
          __llmobs_nargs=$((__llmobs_nargs + 1))
          __llmobs_arg "$__llmobs_path" 0
          if [ "$__llmobs_r" = @commands ]; then __llmobs_child "$__llmobs_target" "$word"; __llmobs_target=$__llmobs_r; fi
        fi ;;
    esac
  done
}

# Offers the values of KIND for the word CUR.
__llmobs_values() {
  local kind=$1 cur=$2 IFS=$'\n'
  case "$kind" in
    @any|'') COMPREPLY=() ;;
    @files) type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    @dirs) type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    @profiles) COMPREPLY=($(compgen -W "$(command llmobs profile list --names 2>/dev/null)" -- "$cur")) ;;
    @commands) __llmobs_children "$__llmobs_target"; IFS=$' \t\n'; COMPREPLY=($(compgen -W "$__llmobs_r" -- "$cur")) ;;
    *) IFS=$' \t\n'; COMPREPLY=($(compgen -W "$kind" -- "$cur")) ;;
  esac
}

_llmobs() {
  local cword=$COMP_CWORD
  local -a typed=("${COMP_WORDS[@]}")
  local cur=${typed[cword]} option=''
  # Bash splits --option=value at "=" (COMP_WORDBREAKS): put the pieces back together.
  if [ "$cur" = '=' ] && [ $cword -ge 2 ]; then
    option=${typed[cword-1]} cur=''
  elif [ $cword -ge 3 ] && [ "${typed[cword-1]}" = '=' ]; then
    option=${typed[cword-2]}
  fi
  local -a before=()
  local i
  for ((i = 1; i < cword; i++)); do
    if [ "${typed[i]}" = '=' ] && [ ${#before[@]} -gt 0 ]; then
      before[${#before[@]}-1]="${before[${#before[@]}-1]}="
      [ $((i + 1)) -lt $cword ] && { before[${#before[@]}-1]="${before[${#before[@]}-1]}${typed[i+1]}"; i=$((i + 1)); }
      continue
    fi
    before+=("${typed[i]}")
  done
  if [ -n "$option" ]; then unset 'before[${#before[@]}-1]'; fi
  __llmobs_walk "${before[@]}"
  if [ -n "$option" ]; then
    __llmobs_value "$__llmobs_path" "$option"
    __llmobs_values "$__llmobs_r" "$cur"
    return 0
  fi
  if [ -n "$__llmobs_pending" ]; then
    __llmobs_value "$__llmobs_path" "$__llmobs_pending"
    __llmobs_values "$__llmobs_r" "$cur"
    return 0
  fi
  if [ $__llmobs_dashdash = 0 ]; then
    case "$cur" in
      -*)
        __llmobs_options "$__llmobs_path"
        COMPREPLY=($(compgen -W "$__llmobs_r" -- "$cur"))
        return 0 ;;
    esac
  fi
  __llmobs_children "$__llmobs_path"
  if [ -n "$__llmobs_r" ] && [ $__llmobs_nargs = 0 ]; then
    COMPREPLY=($(compgen -W "$__llmobs_r" -- "$cur"))
    return 0
  fi
  __llmobs_arg "$__llmobs_path" "$__llmobs_nargs"
  __llmobs_values "$__llmobs_r" "$cur"
  return 0
}

complete -F _llmobs llmobs
