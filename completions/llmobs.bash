# Shell completion for llmobs. Generated from the command tree by `npm run completions`; do not edit.
# Install: source this file from ~/.bashrc, or copy it to a bash-completion directory.

declare -gA _llmobs_subcommands=(
  ['']='profile models health projects whoami api completion server'
  ['profile']='add list ls show use remove rm test'
  ['profile add']=''
  ['profile list']=''
  ['profile ls']=''
  ['profile show']=''
  ['profile use']=''
  ['profile remove']=''
  ['profile rm']=''
  ['profile test']=''
  ['models']='list ls get create update delete rm match lint'
  ['models list']=''
  ['models ls']=''
  ['models get']=''
  ['models create']=''
  ['models update']=''
  ['models delete']=''
  ['models rm']=''
  ['models match']=''
  ['models lint']=''
  ['health']=''
  ['projects']=''
  ['whoami']=''
  ['api']=''
  ['completion']=''
  ['server']=''
)
declare -gA _llmobs_options=(
  ['']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile add']='--region --public-key --secret-key-stdin --api-key-stdin --default --force --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile list']='--names --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile ls']='--names --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile show']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile use']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile remove']='--yes -y --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile rm']='--yes -y --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['profile test']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models list']='--all --page --limit --custom --managed --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models ls']='--all --page --limit --custom --managed --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models get']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models create']='--name --match-pattern --tokenizer --tokenizer-model --tokens-per-message --tokens-per-name --tokenization-config --price --unit --start-date --file --strict --dry-run --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models update']='--name --match-pattern --tokenizer --tokenizer-model --tokens-per-message --tokens-per-name --tokenization-config --price --unit --start-date --file --strict --dry-run --remove-price --recreate --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models delete']='--yes -y --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models rm']='--yes -y --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models match']='--offline --models-file --expect --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['models lint']='--offline --models-file --strict --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['health']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['projects']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['whoami']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['api']='--field -f --typed-field -F --input --paginate --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['completion']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['server']='--port --host --data-dir --ephemeral --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
)
declare -gA _llmobs_option_values=(
  ['|--profile']='@profiles'
  ['|--base-url']='@any'
  ['|--timeout']='@any'
  ['|--retries']='@any'
  ['profile|--profile']='@profiles'
  ['profile|--base-url']='@any'
  ['profile|--timeout']='@any'
  ['profile|--retries']='@any'
  ['profile add|--region']='@any'
  ['profile add|--public-key']='@any'
  ['profile add|--profile']='@profiles'
  ['profile add|--base-url']='@any'
  ['profile add|--timeout']='@any'
  ['profile add|--retries']='@any'
  ['profile list|--profile']='@profiles'
  ['profile list|--base-url']='@any'
  ['profile list|--timeout']='@any'
  ['profile list|--retries']='@any'
  ['profile ls|--profile']='@profiles'
  ['profile ls|--base-url']='@any'
  ['profile ls|--timeout']='@any'
  ['profile ls|--retries']='@any'
  ['profile show|--profile']='@profiles'
  ['profile show|--base-url']='@any'
  ['profile show|--timeout']='@any'
  ['profile show|--retries']='@any'
  ['profile use|--profile']='@profiles'
  ['profile use|--base-url']='@any'
  ['profile use|--timeout']='@any'
  ['profile use|--retries']='@any'
  ['profile remove|--profile']='@profiles'
  ['profile remove|--base-url']='@any'
  ['profile remove|--timeout']='@any'
  ['profile remove|--retries']='@any'
  ['profile rm|--profile']='@profiles'
  ['profile rm|--base-url']='@any'
  ['profile rm|--timeout']='@any'
  ['profile rm|--retries']='@any'
  ['profile test|--profile']='@profiles'
  ['profile test|--base-url']='@any'
  ['profile test|--timeout']='@any'
  ['profile test|--retries']='@any'
  ['models|--profile']='@profiles'
  ['models|--base-url']='@any'
  ['models|--timeout']='@any'
  ['models|--retries']='@any'
  ['models list|--page']='@any'
  ['models list|--limit']='@any'
  ['models list|--profile']='@profiles'
  ['models list|--base-url']='@any'
  ['models list|--timeout']='@any'
  ['models list|--retries']='@any'
  ['models ls|--page']='@any'
  ['models ls|--limit']='@any'
  ['models ls|--profile']='@profiles'
  ['models ls|--base-url']='@any'
  ['models ls|--timeout']='@any'
  ['models ls|--retries']='@any'
  ['models get|--profile']='@profiles'
  ['models get|--base-url']='@any'
  ['models get|--timeout']='@any'
  ['models get|--retries']='@any'
  ['models create|--name']='@any'
  ['models create|--match-pattern']='@any'
  ['models create|--tokenizer']='openai claude none'
  ['models create|--tokenizer-model']='@any'
  ['models create|--tokens-per-message']='@any'
  ['models create|--tokens-per-name']='@any'
  ['models create|--tokenization-config']='@any'
  ['models create|--price']='@any'
  ['models create|--unit']='TOKENS CHARACTERS MILLISECONDS SECONDS REQUESTS IMAGES'
  ['models create|--start-date']='@any'
  ['models create|--file']='@files'
  ['models create|--profile']='@profiles'
  ['models create|--base-url']='@any'
  ['models create|--timeout']='@any'
  ['models create|--retries']='@any'
  ['models update|--name']='@any'
  ['models update|--match-pattern']='@any'
  ['models update|--tokenizer']='openai claude none'
  ['models update|--tokenizer-model']='@any'
  ['models update|--tokens-per-message']='@any'
  ['models update|--tokens-per-name']='@any'
  ['models update|--tokenization-config']='@any'
  ['models update|--price']='@any'
  ['models update|--unit']='TOKENS CHARACTERS MILLISECONDS SECONDS REQUESTS IMAGES'
  ['models update|--start-date']='@any'
  ['models update|--file']='@files'
  ['models update|--remove-price']='@any'
  ['models update|--profile']='@profiles'
  ['models update|--base-url']='@any'
  ['models update|--timeout']='@any'
  ['models update|--retries']='@any'
  ['models delete|--profile']='@profiles'
  ['models delete|--base-url']='@any'
  ['models delete|--timeout']='@any'
  ['models delete|--retries']='@any'
  ['models rm|--profile']='@profiles'
  ['models rm|--base-url']='@any'
  ['models rm|--timeout']='@any'
  ['models rm|--retries']='@any'
  ['models match|--models-file']='@files'
  ['models match|--expect']='@any'
  ['models match|--profile']='@profiles'
  ['models match|--base-url']='@any'
  ['models match|--timeout']='@any'
  ['models match|--retries']='@any'
  ['models lint|--models-file']='@files'
  ['models lint|--profile']='@profiles'
  ['models lint|--base-url']='@any'
  ['models lint|--timeout']='@any'
  ['models lint|--retries']='@any'
  ['health|--profile']='@profiles'
  ['health|--base-url']='@any'
  ['health|--timeout']='@any'
  ['health|--retries']='@any'
  ['projects|--profile']='@profiles'
  ['projects|--base-url']='@any'
  ['projects|--timeout']='@any'
  ['projects|--retries']='@any'
  ['whoami|--profile']='@profiles'
  ['whoami|--base-url']='@any'
  ['whoami|--timeout']='@any'
  ['whoami|--retries']='@any'
  ['api|--field']='@any'
  ['api|-f']='@any'
  ['api|--typed-field']='@any'
  ['api|-F']='@any'
  ['api|--input']='@files'
  ['api|--profile']='@profiles'
  ['api|--base-url']='@any'
  ['api|--timeout']='@any'
  ['api|--retries']='@any'
  ['completion|--profile']='@profiles'
  ['completion|--base-url']='@any'
  ['completion|--timeout']='@any'
  ['completion|--retries']='@any'
  ['server|--port']='@any'
  ['server|--host']='@any'
  ['server|--data-dir']='@dirs'
  ['server|--profile']='@profiles'
  ['server|--base-url']='@any'
  ['server|--timeout']='@any'
  ['server|--retries']='@any'
)
declare -gA _llmobs_arg_values=(
  ['profile show|0']='@profiles'
  ['profile use|0']='@profiles'
  ['profile remove|0']='@profiles'
  ['profile rm|0']='@profiles'
  ['profile test|0']='@profiles'
)

_llmobs_complete_values() {
  local values="$1" cur="$2"
  case "$values" in
    @profiles) COMPREPLY=($(compgen -W "$(command llmobs profile list --names 2>/dev/null)" -- "$cur")) ;;
    @files) COMPREPLY=($(compgen -f -- "$cur")) ;;
    @dirs) COMPREPLY=($(compgen -d -- "$cur")) ;;
    @any) COMPREPLY=() ;;
    *) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
  esac
}

_llmobs() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local path="" word i skip=0 nargs=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    if [[ "$word" == -* ]]; then
      [[ "$word" != *=* && -n "${_llmobs_option_values["$path|$word"]+x}" ]] && skip=1
    elif [[ -n "${_llmobs_subcommands["${path:+$path }$word"]+x}" && $nargs -eq 0 ]]; then
      path="${path:+$path }$word"
    else
      nargs=$((nargs + 1))
    fi
  done
  if ((skip)); then
    _llmobs_complete_values "${_llmobs_option_values["$path|${COMP_WORDS[COMP_CWORD-1]}"]}" "$cur"
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "${_llmobs_options["$path"]}" -- "$cur"))
  elif [[ -n "${_llmobs_subcommands["$path"]}" ]]; then
    COMPREPLY=($(compgen -W "${_llmobs_subcommands["$path"]}" -- "$cur"))
  elif [[ -n "${_llmobs_arg_values["$path|$nargs"]+x}" ]]; then
    _llmobs_complete_values "${_llmobs_arg_values["$path|$nargs"]}" "$cur"
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

complete -F _llmobs llmobs
