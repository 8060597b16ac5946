# Shell completion for llmobs. Generated from the command tree by `npm run completions`; do not edit.
# Install: source this file from ~/.bashrc, or copy it to a bash-completion directory.

declare -gA _llmobs_subcommands=(
  ['']='profile tokens estimate health projects whoami api completion server'
  ['profile']='add list ls show use remove rm test'
  ['profile add']=''
  ['profile list']=''
  ['profile ls']=''
  ['profile show']=''
  ['profile use']=''
  ['profile remove']=''
  ['profile rm']=''
  ['profile test']=''
  ['tokens']='count'
  ['tokens count']=''
  ['estimate']=''
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
  ['tokens']='--version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['tokens count']='--file --model --encoding --models-file --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
  ['estimate']='--model --input --input-file --output --output-file --usage --usage-file --cost --model-parameters --metadata --level --explain --models-file --batch --version -V --profile --base-url --json --verbose --no-color --timeout --retries --help -h'
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
  ['tokens|--profile']='@profiles'
  ['tokens|--base-url']='@any'
  ['tokens|--timeout']='@any'
  ['tokens|--retries']='@any'
  ['tokens count|--file']='@files'
  ['tokens count|--model']='@any'
  ['tokens count|--encoding']='o200k_base cl100k_base p50k_base p50k_edit r50k_base gpt2 claude'
  ['tokens count|--models-file']='@files'
  ['tokens count|--profile']='@profiles'
  ['tokens count|--base-url']='@any'
  ['tokens count|--timeout']='@any'
  ['tokens count|--retries']='@any'
  ['estimate|--model']='@any'
  ['estimate|--input']='@any'
  ['estimate|--input-file']='@files'
  ['estimate|--output']='@any'
  ['estimate|--output-file']='@files'
  ['estimate|--usage']='@any'
  ['estimate|--usage-file']='@files'
  ['estimate|--cost']='@any'
  ['estimate|--model-parameters']='@any'
  ['estimate|--metadata']='@any'
  ['estimate|--level']='DEBUG DEFAULT WARNING ERROR'
  ['estimate|--models-file']='@files'
  ['estimate|--batch']='@files'
  ['estimate|--profile']='@profiles'
  ['estimate|--base-url']='@any'
  ['estimate|--timeout']='@any'
  ['estimate|--retries']='@any'
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
