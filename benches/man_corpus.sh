# The corpus and options of a training bench, shared by the benches that
# train on the system's man pages; sourced with the bench's arguments:
#
#   megabytes=10                      # the default size
#   bench_option() { ...; }           # the bench's own options
#   source benches/man_corpus.sh "$@"
#
# Reads [CORPUS] [--megabytes N] and hands every other option to
# `bench_option "$@"`, which adds what it takes to `rest` and sets `taken`
# to how many arguments that was (left at 0: not an option of the bench).
# Without CORPUS, builds one of N MB from the man pages (kept in target/
# for the next run). Leaves `corpus` and `rest` set.
corpus=""
rest=()
while [ $# -gt 0 ]; do
    case "$1" in
        --megabytes) megabytes="$2"; shift 2 ;;
        -*)
            taken=0
            bench_option "$@"
            if [ "$taken" -eq 0 ]; then
                echo "unknown option $1" >&2
                exit 2
            fi
            shift "$taken" ;;
        *) corpus="$1"; shift ;;
    esac
done
if [ -z "$corpus" ]; then
    corpus=target/bench-corpus-${megabytes}mb.txt
    if [ ! -s "$corpus" ]; then
        zcat /usr/share/man/man*/*.gz 2>/dev/null | head -c $((megabytes * 1000000)) > "$corpus" || true
    fi
    if [ ! -s "$corpus" ]; then
        echo "no man pages here to build a corpus from: give a CORPUS file" >&2
        exit 2
    fi
fi
