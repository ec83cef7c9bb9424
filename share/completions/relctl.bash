#!/bin/bash

__relctl_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__relctl_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__relctl_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__relctl_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_relctl() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __relctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    init|check|validate-tag|matrix|build|package|linux-package|repository|image|checksum|verify|sign|installer|chart|channel|notes|bump|plan|ci|release|release-pr|publish|reproduce|train|completions|manual|help)
        # Offer subcommand argument completions
        "_relctl_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'init check validate-tag matrix build package linux-package repository image checksum verify sign installer chart channel notes bump plan ci release release-pr publish reproduce train completions manual help' -- "${cur}"))
        ;;
    esac
}

_relctl_init() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac
}

_relctl_check() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac
}

_relctl_validate-tag() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac
}

_relctl_matrix() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=(--target)
    non_repeating_options=(--config --color --format)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __relctl_add_completions -W 'table'$'\n''json'$'\n''github'
        return
        ;;
    '--target')
        return
        ;;
    esac
}

_relctl_build() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --host --version -h --help)
    repeating_options=(--target)
    non_repeating_options=(--config --color --jobs --tag)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--target')
        return
        ;;
    '--jobs')
        return
        ;;
    '--tag')
        return
        ;;
    esac
}

_relctl_package() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --clean --version -h --help)
    repeating_options=(--target)
    non_repeating_options=(--config --color --tag --out --artifacts --jobs)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--tag')
        return
        ;;
    '--target')
        return
        ;;
    '--out')
        return
        ;;
    '--artifacts')
        return
        ;;
    '--jobs')
        return
        ;;
    esac
}

_relctl_linux-package() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=(--target --format)
    non_repeating_options=(--config --color --tag --out --artifacts --export-key)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--tag')
        return
        ;;
    '--target')
        return
        ;;
    '--format')
        return
        ;;
    '--out')
        return
        ;;
    '--artifacts')
        return
        ;;
    '--export-key')
        return
        ;;
    esac
}

_relctl_repository() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --publish --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --tag --out --previous)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--tag')
        return
        ;;
    '--out')
        return
        ;;
    '--previous')
        return
        ;;
    esac
}

_relctl_image() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --push --dry-run --version -h --help)
    repeating_options=(--target --image)
    non_repeating_options=(--config --color --tag --out --artifacts)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--tag')
        return
        ;;
    '--target')
        return
        ;;
    '--image')
        return
        ;;
    '--out')
        return
        ;;
    '--artifacts')
        return
        ;;
    esac
}

_relctl_checksum() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --algorithm --jobs)
    __relctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--algorithm')
        return
        ;;
    '--jobs')
        return
        ;;
    esac
}

_relctl_verify() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --allow-unlisted --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --jobs --allowed-signers --minisign-key --repository-key)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--jobs')
        return
        ;;
    '--allowed-signers')
        return
        ;;
    '--minisign-key')
        return
        ;;
    '--repository-key')
        return
        ;;
    esac
}

_relctl_sign() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac
}

_relctl_installer() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --dist --repository)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--dist')
        return
        ;;
    '--repository')
        return
        ;;
    esac
}

_relctl_chart() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --push --dry-run --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --tag --dist)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--tag')
        return
        ;;
    '--dist')
        return
        ;;
    esac
}

_relctl_channel() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --publish --dry-run --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --tag --dist)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--tag')
        return
        ;;
    '--dist')
        return
        ;;
    esac
}

_relctl_notes() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --from --to --tag --output -o --changelog --dist)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--from')
        return
        ;;
    '--to')
        return
        ;;
    '--tag')
        return
        ;;
    '--output'|'-o')
        return
        ;;
    '--changelog')
        return
        ;;
    '--dist')
        return
        ;;
    esac
}

_relctl_bump() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --write --dry-run --version -h --help)
    repeating_options=(--member)
    non_repeating_options=(--config --color --set)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--set')
        return
        ;;
    '--member')
        return
        ;;
    esac
}

_relctl_plan() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac
}

_relctl_ci() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __relctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    generate|pending)
        # Offer subcommand argument completions
        "_relctl_ci_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'generate pending' -- "${cur}"))
        ;;
    esac
}

_relctl_ci_generate() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --check --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --provider)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--provider')
        __relctl_add_completions -W 'github'$'\n''gitlab'
        return
        ;;
    esac
}

_relctl_ci_pending() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --format)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __relctl_add_completions -W 'table'$'\n''github'$'\n''gitlab'
        return
        ;;
    esac
}

_relctl_release() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --pending --dry-run --push --publish --keep --host --preflight-only --profile --version -h --help)
    repeating_options=(--target)
    non_repeating_options=(--config --color --artifacts --jobs)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--target')
        return
        ;;
    '--artifacts')
        return
        ;;
    '--jobs')
        return
        ;;
    esac
}

_relctl_release-pr() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --dry-run --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --forge)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--forge')
        return
        ;;
    esac
}

_relctl_publish() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --draft --replace --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --forge --registry)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--forge')
        return
        ;;
    '--registry')
        return
        ;;
    esac
}

_relctl_reproduce() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --keep --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --from)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--from')
        return
        ;;
    esac
}

_relctl_train() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __relctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    plan|run)
        # Offer subcommand argument completions
        "_relctl_train_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'plan run' -- "${cur}"))
        ;;
    esac
}

_relctl_train_plan() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --workspace)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--workspace')
        return
        ;;
    esac
}

_relctl_train_run() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --dry-run --set-version --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --workspace --jobs)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--workspace')
        return
        ;;
    '--jobs')
        return
        ;;
    esac
}

_relctl_completions() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color)
    __relctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __relctl_add_completions -W 'bash'$'\n''zsh'$'\n''fish'
        return
        ;;
    esac
}

_relctl_manual() {
    repeating_flags=()
    non_repeating_flags=(--json -q --quiet -v --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--config --color --date)
    __relctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--color')
        __relctl_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--date')
        return
        ;;
    esac
}

_relctl_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __relctl_offer_flags_options -1
}

complete -o filenames -F _relctl relctl
