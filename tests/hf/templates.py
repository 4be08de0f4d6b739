"""Tokenizers with post-processors, and their ids with the template.

stdin: {"corpus": path, "dir": folder, "texts": [...]}
Trains a byte-level BPE and a WordPiece on the corpus and saves them with
each post-processor: TemplateProcessing ("<s> $A </s>", "$A </s>", "[CLS]
$A [SEP]"), BertProcessing, RobertaProcessing, and Sequence[ByteLevel,
TemplateProcessing] as Llama 3 has it. Prints {name: {"json": path,
"ids": [encode(text, add_special_tokens=True).ids ...]}}.
"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

job = json.load(sys.stdin)
specials = ["<s>", "</s>", "[CLS]", "[SEP]", "[UNK]"]

bpe = Tokenizer(models.BPE())
bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
bpe.decoder = decoders.ByteLevel()
bpe.train(
    [job["corpus"]],
    trainers.BpeTrainer(
        vocab_size=600,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    ),
)

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train([job["corpus"]], trainers.WordPieceTrainer(vocab_size=600, special_tokens=specials, show_progress=False))


def ids(tok, names):
    return [(n, tok.token_to_id(n)) for n in names]


cases = {
    "bos_eos": (bpe, processors.TemplateProcessing(single="<s> $A </s>", special_tokens=ids(bpe, ["<s>", "</s>"]))),
    "eos_only": (bpe, processors.TemplateProcessing(single="$A </s>", special_tokens=ids(bpe, ["</s>"]))),
    "llama3": (
        bpe,
        processors.Sequence(
            [
                processors.ByteLevel(trim_offsets=False),
                processors.TemplateProcessing(single="<s> $A", special_tokens=ids(bpe, ["<s>"])),
            ]
        ),
    ),
    "roberta": (bpe, processors.RobertaProcessing(("</s>", bpe.token_to_id("</s>")), ("<s>", bpe.token_to_id("<s>")))),
    "bert": (wp, processors.BertProcessing(("[SEP]", wp.token_to_id("[SEP]")), ("[CLS]", wp.token_to_id("[CLS]")))),
    "bert_template": (
        wp,
        processors.TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=ids(wp, ["[CLS]", "[SEP]"])),
    ),
}
out = {}
for name, (tok, post) in cases.items():
    tok.post_processor = post
    path = os.path.join(job["dir"], name + ".json")
    tok.save(path)
    t = Tokenizer.from_file(path)
    out[name] = {"json": path, "ids": [t.encode(x, add_special_tokens=True).ids for x in job["texts"]]}
json.dump(out, sys.stdout)
