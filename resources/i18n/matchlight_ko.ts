<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Matchlight</source>
        <translation>Matchlight 정보</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Matchlight {__version__}&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Matchlight {__version__}&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Reference-based evaluation of generated text: BLEU, chrF, ROUGE and NLTK-BLEU per sentence, with the matches highlighted. Every number equals the reference implementation&apos;s, bit for bit.</source>
        <translation>생성된 텍스트를 참조 번역과 비교해 평가합니다. BLEU, chrF, ROUGE, NLTK-BLEU를 문장별로 계산하고 일치 부분을 강조 표시합니다. 모든 수치는 참조 구현의 결과와 비트 단위까지 같습니다.</translation>
    </message>
</context>
<context>
    <name>AnnotationController</name>
    <message>
        <source>Choose a row first.</source>
        <translation>먼저 행을 선택하세요.</translation>
    </message>
    <message>
        <source>ESA mode: errors have a severity only (m, M, C).</source>
        <translation>ESA 모드: 오류에는 심각도만 있습니다 (m, M, C).</translation>
    </message>
    <message>
        <source>There is no category {number} (the typology has {count}).</source>
        <translation>범주 {number}은(는) 없습니다 (유형 체계의 범주는 {count}개).</translation>
    </message>
    <message>
        <source>Change category</source>
        <translation>범주 변경</translation>
    </message>
    <message>
        <source>Change severity</source>
        <translation>심각도 변경</translation>
    </message>
    <message>
        <source>Change note</source>
        <translation>메모 변경</translation>
    </message>
    <message>
        <source>Show the row in the detail pane first (select a row, then press T).</source>
        <translation>먼저 세부 창에 행을 표시하세요 (행을 선택한 뒤 T).</translation>
    </message>
    <message>
        <source>Select the source words of the error (an omission: the words the output left out).</source>
        <translation>오류에 해당하는 원문 단어를 선택하세요 (누락: 출력이 빠뜨린 단어).</translation>
    </message>
    <message>
        <source>a category (1–9)</source>
        <translation>범주(1–9)</translation>
    </message>
    <message>
        <source>a severity (m minor, M major, C critical)</source>
        <translation>심각도(m 경미, M 중대, C 치명)</translation>
    </message>
    <message>
        <source>Draft: pick {what}, then press Enter.</source>
        <translation>작성 중: {what}을(를) 고른 뒤 Enter를 누르세요.</translation>
    </message>
    <message>
        <source> and </source>
        <translation> 및 </translation>
    </message>
    <message>
        <source>{category} needs a note: press F2 and say what the error is.</source>
        <translation>{category}에는 메모가 필요합니다: F2를 누르고 어떤 오류인지 적으세요.</translation>
    </message>
    <message>
        <source>Press Enter to add the error.</source>
        <translation>Enter를 누르면 오류가 추가됩니다.</translation>
    </message>
    <message>
        <source>This error is already confirmed.</source>
        <translation>이 오류는 이미 확정되었습니다.</translation>
    </message>
    <message>
        <source>Select the words of an error (Shift+arrows or the mouse) and pick its category and severity; press D when this output has no further errors.</source>
        <translation>오류에 해당하는 단어를 선택하고(Shift+화살표 또는 마우스) 범주와 심각도를 고르세요. 이 출력에 더 이상 오류가 없으면 D를 누르세요.</translation>
    </message>
    <message>
        <source>Only spaces are selected; select the words of the error.</source>
        <translation>공백만 선택되었습니다. 오류에 해당하는 단어를 선택하세요.</translation>
    </message>
    <message>
        <source>No error under the cursor.</source>
        <translation>커서 위치에 오류가 없습니다.</translation>
    </message>
    <message>
        <source>Confirm error</source>
        <translation>오류 확정</translation>
    </message>
    <message>
        <source>Reject error</source>
        <translation>오류 거부</translation>
    </message>
    <message>
        <source>Reopen error</source>
        <translation>오류를 미결정으로 되돌리기</translation>
    </message>
    <message>
        <source>This output is already marked as annotated.</source>
        <translation>이 출력은 이미 주석 완료로 표시되어 있습니다.</translation>
    </message>
    <message>
        <source>Mark output done</source>
        <translation>출력 완료 표시</translation>
    </message>
    <message>
        <source>{name}, segment {segment}: done.</source>
        <translation>{name}, 세그먼트 {segment}: 완료.</translation>
    </message>
    <message>
        <source>Set ESA score</source>
        <translation>ESA 점수 설정</translation>
    </message>
    <message>
        <source>Saved the ESA score {value} of {name}, segment {segment}.</source>
        <translation>{name}, 세그먼트 {segment}의 ESA 점수 {value}을(를) 저장했습니다.</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>실행 취소할 작업이 없습니다.</translation>
    </message>
    <message>
        <source>Cannot undo</source>
        <translation>실행 취소할 수 없습니다</translation>
    </message>
    <message>
        <source>Undone: {step}</source>
        <translation>실행 취소됨: {step}</translation>
    </message>
    <message>
        <source>Wait until {step} is applied.</source>
        <translation>{step}이(가) 적용될 때까지 기다리세요.</translation>
    </message>
    <message>
        <source>Cannot apply {step}</source>
        <translation>{step}을(를) 적용할 수 없습니다</translation>
    </message>
    <message>
        <source>{step}…</source>
        <translation>{step}…</translation>
    </message>
    <message>
        <source>{step}: {percent} %</source>
        <translation>{step}: {percent}%</translation>
    </message>
    <message>
        <source>Nothing to redo.</source>
        <translation>다시 실행할 작업이 없습니다.</translation>
    </message>
    <message>
        <source>Cannot redo</source>
        <translation>다시 실행할 수 없습니다</translation>
    </message>
    <message>
        <source>Redone: {step}</source>
        <translation>다시 실행됨: {step}</translation>
    </message>
    <message>
        <source>ESA mode: severities only, and a 0–100 score per output.</source>
        <translation>ESA 모드: 심각도만 매기고, 출력마다 0–100 점수를 줍니다.</translation>
    </message>
    <message>
        <source>MQM mode: category and severity per error.</source>
        <translation>MQM 모드: 오류마다 범주와 심각도를 매깁니다.</translation>
    </message>
    <message>
        <source>This comparison has no source to annotate.</source>
        <translation>이 비교에는 주석을 달 원문이 없습니다.</translation>
    </message>
    <message>
        <source>Errors on the source are marked in the annotation view (Ctrl+Shift+A).</source>
        <translation>원문의 오류는 주석 보기에서 표시합니다 (Ctrl+Shift+A).</translation>
    </message>
    <message>
        <source>There is no segment {segment}: the segments are 1–{count}.</source>
        <translation>세그먼트 {segment}은(는) 없습니다. 세그먼트 번호는 1–{count}입니다.</translation>
    </message>
    <message>
        <source>Segment {segment} is hidden by the filters of the table; clear them to go there.</source>
        <translation>세그먼트 {segment}은(는) 표의 필터에 가려져 있습니다. 이동하려면 필터를 지우세요.</translation>
    </message>
    <message>
        <source>Annotating {system}.</source>
        <translation>{system}에 주석을 다는 중입니다.</translation>
    </message>
    <message>
        <source>Every output of {system} shown is annotated.</source>
        <translation>표시된 {system}의 출력은 모두 주석 완료입니다.</translation>
    </message>
    <message>
        <source>No errors in this output.</source>
        <translation>이 출력에는 오류가 없습니다.</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>{error} on the source ({severity}, {status})</source>
        <translation>원문의 {error} ({severity}, {status})</translation>
    </message>
    <message>
        <source>{error} ({severity}, {status})</source>
        <translation>{error} ({severity}, {status})</translation>
    </message>
</context>
<context>
    <name>AnnotationPanel</name>
    <message>
        <source>No comparison open.</source>
        <translation>열린 비교가 없습니다.</translation>
    </message>
    <message>
        <source>Your name, stored with every error you mark</source>
        <translation>표시하는 모든 오류에 함께 저장되는 이름</translation>
    </message>
    <message>
        <source>The system whose output you annotate (S / Shift+S)</source>
        <translation>주석을 달 출력의 시스템 (S / Shift+S)</translation>
    </message>
    <message>
        <source>Annotator:</source>
        <translation>주석자:</translation>
    </message>
    <message>
        <source>System:</source>
        <translation>시스템:</translation>
    </message>
    <message>
        <source>New error</source>
        <translation>새 오류</translation>
    </message>
    <message>
        <source>Select the words of an error in the output (mouse, or T then Shift+arrows); with nothing selected, the error is an omission at the cursor</source>
        <translation>출력에서 오류에 해당하는 단어를 선택하세요(마우스, 또는 T 다음 Shift+화살표). 아무것도 선택하지 않으면 커서 위치의 누락 오류가 됩니다</translation>
    </message>
    <message>
        <source>Note (F2) — needed for Other</source>
        <translation>메모 (F2) — Other에는 필수</translation>
    </message>
    <message>
        <source>Add ⏎</source>
        <translation>추가 ⏎</translation>
    </message>
    <message>
        <source>Add the drafted error (Enter)</source>
        <translation>작성 중인 오류 추가 (Enter)</translation>
    </message>
    <message>
        <source>Drop (Esc)</source>
        <translation>취소 (Esc)</translation>
    </message>
    <message>
        <source>Drop the drafted error (Escape)</source>
        <translation>작성 중인 오류 취소 (Escape)</translation>
    </message>
    <message>
        <source>Done (D)</source>
        <translation>완료 (D)</translation>
    </message>
    <message>
        <source>No further errors in this output: it counts as annotated (D)</source>
        <translation>이 출력에 더 이상 오류가 없음: 주석 완료로 처리합니다 (D)</translation>
    </message>
    <message>
        <source>Errors in this output</source>
        <translation>이 출력의 오류</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>범주</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>확정</translation>
    </message>
    <message>
        <source>Confirm the pre-annotated error (Enter on it)</source>
        <translation>사전 주석 오류 확정 (해당 오류에서 Enter)</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>거부</translation>
    </message>
    <message>
        <source>Reject the pre-annotated error (Backspace on it)</source>
        <translation>사전 주석 오류 거부 (해당 오류에서 Backspace)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>Delete the error (Backspace on it)</source>
        <translation>오류 삭제 (해당 오류에서 Backspace)</translation>
    </message>
    <message>
        <source>Re-attach</source>
        <translation>다시 연결</translation>
    </message>
    <message>
        <source>Put the chosen lost error (flagged: not found) on the text selected in the output</source>
        <translation>선택한 유실 오류(표시: 찾을 수 없음)를 출력에서 선택한 텍스트에 연결</translation>
    </message>
    <message>
        <source>Show their rows</source>
        <translation>해당 행 표시</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>MQM penalty:</source>
        <translation>MQM 감점:</translation>
    </message>
    <message>
        <source>The output&apos;s ESA score, 0–100 (E, then Enter)</source>
        <translation>출력의 ESA 점수, 0–100 (E 다음 Enter)</translation>
    </message>
    <message>
        <source>Save score</source>
        <translation>점수 저장</translation>
    </message>
    <message>
        <source>ESA score:</source>
        <translation>ESA 점수:</translation>
    </message>
    <message>
        <source>Show rows</source>
        <translation>행 표시</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>적용</translation>
    </message>
    <message>
        <source>All rows</source>
        <translation>모든 행</translation>
    </message>
    <message>
        <source>of</source>
        <comment>any system of …</comment>
        <translation>대상</translation>
    </message>
    <message>
        <source>Category {name} (key {0}; press again for its sub-categories)</source>
        <translation>범주 {name} (키 {0}, 다시 누르면 하위 범주)</translation>
    </message>
    <message>
        <source>Category {name} (key {0})</source>
        <translation>범주 {name} (키 {0})</translation>
    </message>
    <message>
        <source>Choose a row to annotate.</source>
        <translation>주석을 달 행을 선택하세요.</translation>
    </message>
    <message>
        <source>Segment {0} · {system} · {mode}</source>
        <translation>세그먼트 {0} · {system} · {mode}</translation>
    </message>
    <message>
        <source>On error «{text}»: keys change it (Enter confirms, Backspace removes)</source>
        <translation>오류 «{text}» 위: 키로 바꿀 수 있습니다 (Enter 확정, Backspace 제거)</translation>
    </message>
    <message>
        <source>Selected: «{text}»</source>
        <translation>선택됨: «{text}»</translation>
    </message>
    <message>
        <source>Select the words of an error: mouse, or Shift+arrows in the output (T).</source>
        <translation>오류에 해당하는 단어를 선택하세요: 마우스, 또는 출력에서 Shift+화살표 (T).</translation>
    </message>
    <message>
        <source>Omission at “{before}‸{after}”</source>
        <translation>누락 위치: “{before}‸{after}”</translation>
    </message>
    <message>
        <source>Category: {0}</source>
        <translation>범주: {0}</translation>
    </message>
    <message>
        <source>flagged: not found</source>
        <translation>표시됨: 찾을 수 없음</translation>
    </message>
    <message>
        <source>‸ (omission)</source>
        <translation>‸ (누락)</translation>
    </message>
    <message>
        <source>source: {0}</source>
        <translation>원문: {0}</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>Note: {0}</source>
        <translation>메모: {0}</translation>
    </message>
    <message>
        <source>By {annotator} ({origin})</source>
        <translation>작성: {annotator} ({origin})</translation>
    </message>
    <message>
        <source>⚠ {0} errors could not be found again in the changed files.</source>
        <translation>⚠ 변경된 파일에서 오류 {0}개를 다시 찾지 못했습니다.</translation>
    </message>
    <message>
        <source>{0:.2f} over {1} rated outputs</source>
        <translation>평가된 출력 {1}개 평균 {0:.2f}</translation>
    </message>
    <message>
        <source>not rated yet</source>
        <translation>아직 평가되지 않음</translation>
    </message>
    <message>
        <source>this output: {here}; {name}: {mean}</source>
        <translation>이 출력: {here}, {name}: {mean}</translation>
    </message>
    <message>
        <source>from the errors: {0:g}</source>
        <translation>오류 기준: {0:g}</translation>
    </message>
    <message>
        <source>saved {0:g}; {hint}</source>
        <translation>저장됨 {0:g}, {hint}</translation>
    </message>
    <message>
        <source>not annotated</source>
        <translation>주석 없음</translation>
    </message>
    <message>
        <source>annotated</source>
        <translation>주석 완료</translation>
    </message>
    <message>
        <source>with errors to review (imported)</source>
        <translation>검토할 오류 있음(가져옴)</translation>
    </message>
    <message>
        <source>{0} errors</source>
        <translation>{0} 오류</translation>
    </message>
    <message>
        <source>errors by {0}</source>
        <translation>{0}의 오류</translation>
    </message>
    <message>
        <source>any system</source>
        <translation>모든 시스템</translation>
    </message>
    <message>
        <source>«{0}» was not found again: select its new text in the output and press Re-attach, or delete it.</source>
        <translation>«{0}»을(를) 다시 찾지 못했습니다. 출력에서 새 텍스트를 선택하고 &quot;다시 연결&quot;을 누르거나 삭제하세요.</translation>
    </message>
    <message>
        <source>Pick an error in the list first.</source>
        <translation>먼저 목록에서 오류를 선택하세요.</translation>
    </message>
    <message>
        <source>Pick the lost error in the list first.</source>
        <translation>먼저 목록에서 유실된 오류를 선택하세요.</translation>
    </message>
</context>
<context>
    <name>AnnotationReview</name>
    <message>
        <source>its text was not found again in the changed file: re-attach it first</source>
        <translation>바뀐 파일에서 텍스트를 다시 찾지 못했습니다: 먼저 다시 연결하세요</translation>
    </message>
    <message>
        <source>an MQM error span needs a category</source>
        <translation>MQM 오류 구간에는 범주가 필요합니다</translation>
    </message>
    <message>
        <source>everywhere</source>
        <translation>전체에서</translation>
    </message>
    <message>
        <source>of {0}</source>
        <translation>{0}에서</translation>
    </message>
    <message>
        <source>of no segment</source>
        <translation>세그먼트 없음에서</translation>
    </message>
    <message>
        <source>of segment {0}</source>
        <translation>세그먼트 {0}에서</translation>
    </message>
    <message>
        <source>of {0}, segment {1}</source>
        <translation>{0}의 세그먼트 {1}에서</translation>
    </message>
    <message>
        <source>No undecided errors {where}.</source>
        <translation>{where} 미결정 오류가 없습니다.</translation>
    </message>
    <message>
        <source>{0} error confirmed {where}.</source>
        <translation>{where} 오류 {0}개를 확정했습니다.</translation>
    </message>
    <message>
        <source>{0} errors confirmed {where}.</source>
        <translation>{where} 오류 {0}개를 확정했습니다.</translation>
    </message>
    <message>
        <source>{0} error rejected {where}.</source>
        <translation>{where} 오류 {0}개를 거부했습니다.</translation>
    </message>
    <message>
        <source>{0} errors rejected {where}.</source>
        <translation>{where} 오류 {0}개를 거부했습니다.</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>{0} because {why}</source>
        <translation>{0}개: {why}</translation>
    </message>
    <message>
        <source>{0} left undecided: {reasons}.</source>
        <translation>{0}개는 미결정으로 남았습니다: {reasons}.</translation>
    </message>
    <message>
        <source>Choose a row first.</source>
        <translation>먼저 행을 선택하세요.</translation>
    </message>
    <message>
        <source>This error was found in its text: there is nothing to re-attach.</source>
        <translation>이 오류는 텍스트에서 찾았습니다: 다시 연결할 것이 없습니다.</translation>
    </message>
    <message>
        <source>The segment of this error is gone: delete it.</source>
        <translation>이 오류의 세그먼트가 없어졌습니다: 오류를 삭제하세요.</translation>
    </message>
    <message>
        <source>Show segment {0} of {1} and select the error&apos;s new text, then re-attach it.</source>
        <translation>{1}의 세그먼트 {0}을(를) 표시하고 오류의 새 텍스트를 선택한 다음 다시 연결하세요.</translation>
    </message>
    <message>
        <source>This error is on the source: select its new text in the source (Shift+T in the annotation view), then re-attach it.</source>
        <translation>이 오류는 원문에 있습니다: 원문에서 새 텍스트를 선택한 다음(주석 보기에서 Shift+T) 다시 연결하세요.</translation>
    </message>
    <message>
        <source>This error is on the output: select its new text in the output, then re-attach it.</source>
        <translation>이 오류는 출력에 있습니다: 출력에서 새 텍스트를 선택한 다음 다시 연결하세요.</translation>
    </message>
    <message>
        <source>Select the words «{0}» stood for, then re-attach the error.</source>
        <translation>«{0}»에 해당하던 단어를 선택한 다음 오류를 다시 연결하세요.</translation>
    </message>
    <message>
        <source>Re-attached to «{0}».</source>
        <translation>«{0}»에 다시 연결했습니다.</translation>
    </message>
    <message>
        <source>{0} is not a system of this comparison.</source>
        <translation>{0}은(는) 이 비교의 시스템이 아닙니다.</translation>
    </message>
    <message>
        <source>Segment {0} is hidden by the filter: show all rows to see it.</source>
        <translation>세그먼트 {0}은(는) 필터에 가려져 있습니다: 보려면 모든 행을 표시하세요.</translation>
    </message>
    <message>
        <source>Segment {0}: the error is on the source ({1}–{2}).</source>
        <translation>세그먼트 {0}: 오류가 원문에 있습니다({1}–{2}).</translation>
    </message>
</context>
<context>
    <name>AnnotationTableLink</name>
    <message>
        <source>annotations: {0}</source>
        <translation>주석: {0}</translation>
    </message>
    <message>
        <source>{0} rows: {1}.</source>
        <translation>{0}개 행: {1}.</translation>
    </message>
    <message>
        <source>flagged errors</source>
        <translation>표시된 오류</translation>
    </message>
</context>
<context>
    <name>AnnotationTransfer</name>
    <message>
        <source>Cannot import the annotations</source>
        <translation>주석을 가져올 수 없습니다</translation>
    </message>
    <message>
        <source>Cannot export the annotations</source>
        <translation>주석을 내보낼 수 없습니다</translation>
    </message>
    <message>
        <source>Cannot read the other session</source>
        <translation>다른 세션을 읽을 수 없습니다</translation>
    </message>
    <message>
        <source>Reading {0}…</source>
        <translation>{0} 읽는 중…</translation>
    </message>
    <message>
        <source>The file held no annotations of these systems.</source>
        <translation>파일에 이 시스템들의 주석이 없습니다.</translation>
    </message>
    <message>
        <source>The TSV file&apos;s layout was not kept: {0}</source>
        <translation>TSV 파일의 배치를 보존하지 못했습니다: {0}</translation>
    </message>
    <message>
        <source>… and {0} more warnings</source>
        <translation>… 외 경고 {0}개</translation>
    </message>
    <message>
        <source>{0} spans of systems not in this comparison were skipped.</source>
        <translation>이 비교에 없는 시스템의 구간 {0}개를 건너뛰었습니다.</translation>
    </message>
    <message>
        <source>Imported {0} errors to review (Enter confirms, Backspace rejects) and {1} segment scores.</source>
        <translation>검토할 오류 {0}개(Enter 확정, Backspace 거부)와 세그먼트 점수 {1}개를 가져왔습니다.</translation>
    </message>
    <message>
        <source>Imported {0} errors to review (Enter confirms, Backspace rejects).</source>
        <translation>검토할 오류 {0}개를 가져왔습니다(Enter 확정, Backspace 거부).</translation>
    </message>
    <message>
        <source>Annotations imported</source>
        <translation>주석을 가져왔습니다</translation>
    </message>
    <message>
        <source>Exported the annotations to {0}.</source>
        <translation>주석을 {0}(으)로 내보냈습니다.</translation>
    </message>
    <message>
        <source>The sessions annotate different files</source>
        <translation>두 세션이 서로 다른 파일에 주석을 달았습니다</translation>
    </message>
</context>
<context>
    <name>AnnotationUi</name>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 파일 (*.csv)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>TSV files (*.tsv)</source>
        <translation>TSV 파일 (*.tsv)</translation>
    </message>
    <message>
        <source>Annotation</source>
        <translation>주석</translation>
    </message>
    <message>
        <source>&amp;Import pre-annotations…</source>
        <translation>사전 주석 가져오기(&amp;I)…</translation>
    </message>
    <message>
        <source>E&amp;xport annotations</source>
        <translation>주석 내보내기(&amp;X)</translation>
    </message>
    <message>
        <source>A&amp;greement with another session…</source>
        <translation>다른 세션과의 일치도(&amp;G)…</translation>
    </message>
    <message>
        <source>Error &amp;typology…</source>
        <translation>오류 유형 체계(&amp;T)…</translation>
    </message>
    <message>
        <source>MQM &amp;weights…</source>
        <translation>MQM 가중치(&amp;W)…</translation>
    </message>
    <message>
        <source>Open a comparison to annotate it.</source>
        <translation>주석을 달려면 비교를 여세요.</translation>
    </message>
    <message>
        <source>Go to segment</source>
        <translation>세그먼트로 이동</translation>
    </message>
    <message>
        <source>Segment (1–{0:,}):</source>
        <translation>세그먼트 (1–{0:,}):</translation>
    </message>
    <message>
        <source>Import pre-annotations</source>
        <translation>사전 주석 가져오기</translation>
    </message>
    <message>
        <source>Annotation files (*.jsonl *.tsv *.json);;All files (*)</source>
        <translation>주석 파일 (*.jsonl *.tsv *.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Segment ids (line i holds segment i&apos;s id)</source>
        <translation>세그먼트 ID (i번째 줄에 세그먼트 i의 ID)</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>텍스트 파일 (*.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>This format keeps each error&apos;s status: export every error with it, or the confirmed ones only.</source>
        <translation>이 형식은 오류마다 상태를 보존합니다. 모든 오류를 상태와 함께 내보내거나, 확정된 오류만 내보낼 수 있습니다.</translation>
    </message>
    <message>
        <source>This format has no status: only confirmed errors are written. CSV and xCOMET JSON Lines keep every error with its status.</source>
        <translation>이 형식에는 상태가 없어 확정된 오류만 기록됩니다. CSV와 xCOMET JSON Lines는 모든 오류를 상태와 함께 보존합니다.</translation>
    </message>
    <message>
        <source>Some errors are not in this export</source>
        <translation>일부 오류가 이번 내보내기에 포함되지 않습니다</translation>
    </message>
    <message>
        <source>Export every error, with its status</source>
        <translation>모든 오류를 상태와 함께 내보내기</translation>
    </message>
    <message>
        <source>Export the confirmed errors only</source>
        <translation>확정된 오류만 내보내기</translation>
    </message>
    <message>
        <source>Export without them</source>
        <translation>제외하고 내보내기</translation>
    </message>
    <message>
        <source>Export annotations</source>
        <translation>주석 내보내기</translation>
    </message>
    <message>
        <source>Another annotator&apos;s session of the same files</source>
        <translation>같은 파일에 대한 다른 주석자의 세션</translation>
    </message>
    <message>
        <source>Matchlight sessions (*{0})</source>
        <translation>Matchlight 세션 (*{0})</translation>
    </message>
    <message>
        <source>&amp;Annotate</source>
        <translation>주석(&amp;A)</translation>
    </message>
</context>
<context>
    <name>AnnotationView</name>
    <message>
        <source>Annotate — Matchlight</source>
        <translation>주석 — Matchlight</translation>
    </message>
    <message>
        <source>Previous system (Shift+S)</source>
        <translation>이전 시스템 (Shift+S)</translation>
    </message>
    <message>
        <source>The system whose output you annotate (S / Shift+S)</source>
        <translation>주석을 달 출력의 시스템 (S / Shift+S)</translation>
    </message>
    <message>
        <source>Next system (S)</source>
        <translation>다음 시스템 (S)</translation>
    </message>
    <message>
        <source>Previous segment (P)</source>
        <translation>이전 세그먼트 (P)</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>세그먼트</translation>
    </message>
    <message>
        <source>Type a segment number and press Enter (Ctrl+G)</source>
        <translation>세그먼트 번호를 입력하고 Enter를 누르세요 (Ctrl+G)</translation>
    </message>
    <message>
        <source>Next segment (N)</source>
        <translation>다음 세그먼트 (N)</translation>
    </message>
    <message>
        <source>Next to do (U)</source>
        <translation>다음 미완료 (U)</translation>
    </message>
    <message>
        <source>The next segment whose output of this system is not done</source>
        <translation>이 시스템의 출력이 아직 완료되지 않은 다음 세그먼트</translation>
    </message>
    <message>
        <source>Metric evidence (V)</source>
        <translation>지표 근거 (V)</translation>
    </message>
    <message>
        <source>The references with this system&apos;s matches, its scores and why (V)</source>
        <translation>이 시스템과 일치한 부분을 표시한 참조 번역, 점수와 그 근거 (V)</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>표</translation>
    </message>
    <message>
        <source>Back to the main window (the table and its scores)</source>
        <translation>메인 창(표와 점수)으로 돌아가기</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>원문</translation>
    </message>
    <message>
        <source>Choose a segment in the table.</source>
        <translation>표에서 세그먼트를 선택하세요.</translation>
    </message>
    <message>
        <source>Open a comparison to annotate.</source>
        <translation>주석을 달려면 비교를 여세요.</translation>
    </message>
    <message>
        <source>{0} — the output you annotate</source>
        <translation>{0} — 주석을 다는 출력</translation>
    </message>
    <message>
        <source>system {0} of {1}</source>
        <translation>시스템 {0}/{1}</translation>
    </message>
    <message>
        <source>of {0:,}</source>
        <translation>/ {0:,}</translation>
    </message>
    <message>
        <source>Annotate {name}, segment {0} — Matchlight</source>
        <translation>{name} 주석, 세그먼트 {0} — Matchlight</translation>
    </message>
    <message>
        <source>No document column: the lines around it (File ▸ Load label column: docid)</source>
        <translation>문서 열 없음: 앞뒤 줄을 표시합니다 (파일 ▸ 레이블 열 불러오기: docid)</translation>
    </message>
    <message>
        <source>Document {0} ({column})</source>
        <translation>문서 {0} ({column})</translation>
    </message>
    <message>
        <source>{where} · segment {0} of {1:,} there</source>
        <translation>{where} · 문서 내 세그먼트 {0}/{1:,}</translation>
    </message>
    <message>
        <source>Metric evidence shown: the references with this output&apos;s matches, and why it scores so (V hides it).</source>
        <translation>지표 근거 표시 중: 이 출력과 일치한 부분을 표시한 참조 번역과 점수의 근거입니다 (V를 누르면 숨김).</translation>
    </message>
</context>
<context>
    <name>BucketsPanel</name>
    <message>
        <source>How segments are grouped</source>
        <translation>세그먼트를 묶는 기준</translation>
    </message>
    <message>
        <source>The score column shown per bucket</source>
        <translation>구간별로 표시할 점수 열</translation>
    </message>
    <message>
        <source>mean of segment scores</source>
        <translation>세그먼트 점수 평균</translation>
    </message>
    <message>
        <source>corpus score per bucket</source>
        <translation>구간별 코퍼스 점수</translation>
    </message>
    <message>
        <source>Mean of the segment scores of each bucket, or the corpus score of the bucket&apos;s segments from their summed statistics (corpus BLEU per bucket, as compare-mt plots it); the same for a column whose corpus figure is a mean (ROUGE)</source>
        <translation>구간별 세그먼트 점수의 평균, 또는 구간에 속한 세그먼트의 통계를 합산해 구한 코퍼스 점수(compare-mt처럼 구간별 코퍼스 BLEU). 코퍼스 수치가 평균인 열(ROUGE)에서는 두 값이 같습니다</translation>
    </message>
    <message>
        <source>in the reference</source>
        <translation>참조 번역 기준</translation>
    </message>
    <message>
        <source>from a count file…</source>
        <translation>빈도 파일에서…</translation>
    </message>
    <message>
        <source>from a training text…</source>
        <translation>학습 텍스트에서…</translation>
    </message>
    <message>
        <source>Where word frequencies come from: the (first) reference, where no word is rarer than 1; or a training corpus, as a word&lt;TAB&gt;count file (compare-mt&apos;s --freq_count_file) or as its text (--freq_corpus_file, split by BLEU&apos;s tokenizer)</source>
        <translation>단어 빈도의 출처: (첫 번째) 참조 번역(빈도가 1보다 낮은 단어는 없음), 또는 학습 코퍼스. 학습 코퍼스는 단어&lt;TAB&gt;빈도 파일(compare-mt의 --freq_count_file)이나 텍스트 자체(--freq_corpus_file, BLEU 토크나이저로 분할)로 지정합니다</translation>
    </message>
    <message>
        <source>By:</source>
        <translation>기준:</translation>
    </message>
    <message>
        <source>Score:</source>
        <translation>점수:</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>표시:</translation>
    </message>
    <message>
        <source>Frequencies:</source>
        <translation>빈도:</translation>
    </message>
    <message>
        <source>Word frequencies from {0}</source>
        <translation>{0}의 단어 빈도</translation>
    </message>
    <message>
        <source>word&lt;TAB&gt;count file</source>
        <translation>단어&lt;TAB&gt;빈도 파일</translation>
    </message>
    <message>
        <source>training text</source>
        <translation>학습 텍스트</translation>
    </message>
    <message>
        <source>Word frequencies: a {what}</source>
        <translation>단어 빈도: {what}</translation>
    </message>
    <message>
        <source>reference length</source>
        <translation>참조 번역 길이</translation>
    </message>
    <message>
        <source>length ratio</source>
        <translation>길이 비율</translation>
    </message>
    <message>
        <source>word frequency</source>
        <translation>단어 빈도</translation>
    </message>
    <message>
        <source>Open a comparison to compare the systems per bucket.</source>
        <translation>비교를 열면 시스템을 구간별로 비교할 수 있습니다.</translation>
    </message>
    <message>
        <source>Scoring… the buckets appear when every segment is scored.</source>
        <translation>채점 중… 모든 세그먼트의 채점이 끝나면 구간이 표시됩니다.</translation>
    </message>
    <message>
        <source>{reading}Computing bootstrap intervals over {0:,} segments…</source>
        <translation>{reading}세그먼트 {0:,}개에 대한 부트스트랩 구간을 계산하는 중…</translation>
    </message>
    <message>
        <source> (lower is better)</source>
        <translation> (낮을수록 좋음)</translation>
    </message>
    <message>
        <source>{0}{1} per bucket</source>
        <translation>구간별 {0}{1}</translation>
    </message>
    <message>
        <source>{0}{1} per bucket over {n_rows:,} segments{way}{note}; whiskers: 95% bootstrap interval ({BOOTSTRAP:,} resamples, seed {SEED}). Click a bar to select its segments.</source>
        <translation>세그먼트 {n_rows:,}개에 대한 구간별 {0}{1}{way}{note}. 오차 막대: 95% 부트스트랩 구간 (재표본 {BOOTSTRAP:,}회, 시드 {SEED}). 막대를 클릭하면 해당 세그먼트를 선택합니다.</translation>
    </message>
</context>
<context>
    <name>CellTextDialog</name>
    <message>
        <source>{title} — Matchlight</source>
        <translation>{title} — Matchlight</translation>
    </message>
    <message>
        <source>{title} · {0:,} characters</source>
        <translation>{title} · {0:,}자</translation>
    </message>
</context>
<context>
    <name>ChartLink</name>
    <message>
        <source>Segment {0} is not among the rows the table shows (filtered out).</source>
        <translation>세그먼트 {0}은(는) 표에 표시된 행에 없습니다(필터로 제외됨).</translation>
    </message>
</context>
<context>
    <name>ChartPanel</name>
    <message>
        <source>Chart</source>
        <translation>차트</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>내보내기</translation>
    </message>
    <message>
        <source>Save the chart as a PNG or SVG file</source>
        <translation>차트를 PNG 또는 SVG 파일로 저장</translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation>PNG 이미지…</translation>
    </message>
    <message>
        <source>SVG vector image…</source>
        <translation>SVG 벡터 이미지…</translation>
    </message>
    <message>
        <source>There is nothing to export yet.</source>
        <translation>아직 내보낼 내용이 없습니다.</translation>
    </message>
    <message>
        <source>Export {0}</source>
        <translation>{0} 내보내기</translation>
    </message>
    <message>
        <source>{0} files (*.{1})</source>
        <translation>{0} 파일 (*.{1})</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>구간별</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>분포</translation>
    </message>
    <message>
        <source>References</source>
        <translation>참조 번역</translation>
    </message>
    <message>
        <source>Scatter</source>
        <translation>산점도</translation>
    </message>
    <message>
        <source>What separates</source>
        <translation>차이를 만드는 요인</translation>
    </message>
    <message>
        <source>Significance</source>
        <translation>유의성</translation>
    </message>
    <message>
        <source>Human agreement</source>
        <translation>사람 평가 일치도</translation>
    </message>
</context>
<context>
    <name>ComparisonDock</name>
    <message>
        <source>Clear chart selection</source>
        <translation>차트 선택 해제</translation>
    </message>
    <message>
        <source>Show the rows the other filters keep again</source>
        <translation>다른 필터가 남긴 행을 다시 표시</translation>
    </message>
    <message>
        <source>Chart selection — {0}</source>
        <translation>차트 선택 — {0}</translation>
    </message>
    <message>
        <source>Compare systems</source>
        <translation>시스템 비교</translation>
    </message>
    <message>
        <source>Load segment &amp;scores…</source>
        <translation>세그먼트 점수 불러오기(&amp;S)…</translation>
    </message>
    <message>
        <source>Add per-segment scores computed elsewhere (COMET, BLEURT, human) as a column</source>
        <translation>다른 곳에서 계산한 세그먼트별 점수(COMET, BLEURT, 사람 평가)를 열로 추가</translation>
    </message>
    <message>
        <source>Load &amp;label column…</source>
        <translation>레이블 열 불러오기(&amp;L)…</translation>
    </message>
    <message>
        <source>Group segments by a label per line (domain, document) in the Buckets tab</source>
        <translation>줄마다 붙은 레이블(도메인, 문서)로 구간별 탭에서 세그먼트를 묶습니다</translation>
    </message>
    <message>
        <source>Load &amp;human judgements…</source>
        <translation>사람 평가 불러오기(&amp;H)…</translation>
    </message>
    <message>
        <source>Add human judgements (per system, per segment, or MQM from error spans) to see which metric agrees with them in the Human agreement tab</source>
        <translation>사람 평가(시스템별, 세그먼트별, 또는 오류 구간에서 얻은 MQM)를 추가해 &quot;사람 평가 일치도&quot; 탭에서 어느 지표가 사람과 일치하는지 확인</translation>
    </message>
    <message>
        <source>{0}: the files score none of this comparison&apos;s systems</source>
        <translation>{0}: 파일에 이 비교의 시스템 점수가 하나도 없습니다</translation>
    </message>
    <message>
        <source>not kept in the session file: cannot read the files again ({0})</source>
        <translation>세션 파일에 보관되지 않음: 파일을 다시 읽을 수 없습니다 ({0})</translation>
    </message>
    <message>
        <source>no scores for {0}</source>
        <translation>{0}의 점수 없음</translation>
    </message>
    <message>
        <source>values {low} to {high}; {scale}</source>
        <translation>값 {low}~{high}, {scale}</translation>
    </message>
    <message>
        <source>Added {name} ({0}).</source>
        <translation>{name}을(를) 추가했습니다 ({0}).</translation>
    </message>
    <message>
        <source>It is not kept in the session file: cannot read it again ({0}).</source>
        <translation>세션 파일에 보관되지 않습니다: 다시 읽을 수 없습니다 ({0}).</translation>
    </message>
    <message>
        <source>Loaded the label column {name} ({0:,} labels): see Buckets.</source>
        <translation>레이블 열 {name}을(를) 불러왔습니다 (레이블 {0:,}개). 구간별 탭을 보세요.</translation>
    </message>
    <message>
        <source>Loaded {name} per system ({0} of {1} systems): see Human agreement.</source>
        <translation>{name}을(를) 시스템별로 불러왔습니다 (시스템 {1}개 중 {0}개). &quot;사람 평가 일치도&quot; 탭을 보세요.</translation>
    </message>
    <message>
        <source>Loaded {name} per segment ({0:,} judged pairs): see Human agreement.</source>
        <translation>{name}을(를) 세그먼트별로 불러왔습니다 (평가된 쌍 {0:,}개). &quot;사람 평가 일치도&quot; 탭을 보세요.</translation>
    </message>
    <message>
        <source> {0} note (hover).</source>
        <translation> 참고 {0}건 (마우스를 올려 보기).</translation>
    </message>
    <message>
        <source> {0} notes (hover).</source>
        <translation> 참고 {0}건 (마우스를 올려 보기).</translation>
    </message>
</context>
<context>
    <name>ComparisonLifecycle</name>
    <message>
        <source>Reading {count} files… the first {rows:,} rows are shown</source>
        <translation>파일 {count}개를 읽는 중… 처음 {rows:,}행을 표시합니다</translation>
    </message>
    <message>
        <source>Showing the first {rows:,} rows while the files are read; the rest follows.</source>
        <translation>파일을 읽는 동안 처음 {rows:,}행을 표시합니다. 나머지는 이어서 표시됩니다.</translation>
    </message>
    <message>
        <source>Could not read the files: {error} ({0})</source>
        <translation>파일을 읽을 수 없습니다: {error} ({0})</translation>
    </message>
    <message>
        <source>Cannot open the comparison</source>
        <translation>비교를 열 수 없습니다</translation>
    </message>
    <message>
        <source>Reading cancelled; nothing was opened.</source>
        <translation>읽기를 취소했습니다. 아무것도 열지 않았습니다.</translation>
    </message>
    <message>
        <source>Stop reading the files; nothing is opened</source>
        <translation>파일 읽기를 중지합니다. 아무것도 열지 않습니다</translation>
    </message>
    <message>
        <source>Stop scoring; the rows scored so far stay</source>
        <translation>채점을 중지합니다. 지금까지 채점한 행은 유지됩니다</translation>
    </message>
    <message>
        <source>Scored {0:,} row.</source>
        <translation>{0:,}행을 채점했습니다.</translation>
    </message>
    <message>
        <source>Scored {0:,} rows.</source>
        <translation>{0:,}행을 채점했습니다.</translation>
    </message>
    <message>
        <source>Scoring cancelled: {done:,} of {total:,} rows scored. Export writes those rows; Resume scoring scores the rest.</source>
        <translation>채점을 취소했습니다: {total:,}행 중 {done:,}행 채점됨. 내보내기는 채점된 행만 씁니다. 나머지는 &quot;채점 재개&quot;로 채점하세요.</translation>
    </message>
    <message>
        <source>Scoring failed.</source>
        <translation>채점에 실패했습니다.</translation>
    </message>
    <message>
        <source>Scoring failed</source>
        <translation>채점 실패</translation>
    </message>
</context>
<context>
    <name>ContextRow</name>
    <message>
        <source>Segment {0}: click to annotate it</source>
        <translation>세그먼트 {0}: 클릭하면 주석을 답니다</translation>
    </message>
</context>
<context>
    <name>CsvExport</name>
    <message>
        <source>{0:,} row</source>
        <translation>{0:,}행</translation>
    </message>
    <message>
        <source>{0:,} rows</source>
        <translation>{0:,}행</translation>
    </message>
    <message>
        <source>Export filtered rows as CSV</source>
        <translation>필터링된 행을 CSV로 내보내기</translation>
    </message>
    <message>
        <source>Export all rows as CSV</source>
        <translation>모든 행을 CSV로 내보내기</translation>
    </message>
    <message>
        <source> (only the {0} scored so far)</source>
        <translation> (지금까지 채점한 {0}만)</translation>
    </message>
    <message>
        <source>Nothing to export</source>
        <translation>내보낼 내용 없음</translation>
    </message>
    <message>
        <source>Open a comparison first.</source>
        <translation>먼저 비교를 여세요.</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>내보낼 수 없습니다</translation>
    </message>
    <message>
        <source> (only the rows scored so far: scoring stopped at {0:,} of {1:,})</source>
        <translation> (지금까지 채점한 행만: {1:,}행 중 {0:,}행에서 채점이 중지됨)</translation>
    </message>
    <message>
        <source>Exported {0} to {path}{note}</source>
        <translation>{0}을(를) {path}(으)로 내보냈습니다{note}</translation>
    </message>
</context>
<context>
    <name>DetailCache</name>
    <message>
        <source>Could not compute the highlights of segment {0}: {reason}</source>
        <translation>세그먼트 {0}의 강조 표시를 계산할 수 없습니다: {reason}</translation>
    </message>
    <message>
        <source>no worker could be started</source>
        <translation>작업 스레드를 시작할 수 없습니다</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <source> (first {0:,} of {1:,} characters shown)</source>
        <translation> ({1:,}자 중 처음 {0:,}자 표시)</translation>
    </message>
    <message>
        <source>Select a row to see its matches.</source>
        <translation>행을 선택하면 일치한 부분을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>What the highlights show: the matches of one metric</source>
        <translation>강조 표시의 내용: 한 지표의 일치 부분</translation>
    </message>
    <message>
        <source>Highlight:</source>
        <translation>강조 표시:</translation>
    </message>
    <message>
        <source>Hover a word of a system output to see where it matched.</source>
        <translation>시스템 출력의 단어에 마우스를 올리면 어디와 일치했는지 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>part of a matched {0}-gram</source>
        <translation>일치한 {0}-gram의 일부</translation>
    </message>
    <message>
        <source>in the longest common subsequence</source>
        <translation>최장 공통 부분 수열에 속함</translation>
    </message>
    <message>
        <source>matched in {0}</source>
        <translation>{0}에서 일치</translation>
    </message>
    <message>
        <source>not matched in any reference</source>
        <translation>어느 참조 번역과도 일치하지 않음</translation>
    </message>
    <message>
        <source>matched</source>
        <translation>일치</translation>
    </message>
    <message>
        <source>Ref {0}</source>
        <translation>참조 {0}</translation>
    </message>
    <message>
        <source>Segment {0}</source>
        <translation>세그먼트 {0}</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>원문</translation>
    </message>
    <message>
        <source> — {0} part no system matched</source>
        <translation> — 어느 시스템도 일치하지 않은 부분 {0}개</translation>
    </message>
    <message>
        <source> — {0} parts no system matched</source>
        <translation> — 어느 시스템도 일치하지 않은 부분 {0}개</translation>
    </message>
    <message>
        <source> — {system}: {0} part gained, {1} lost against {baseline}</source>
        <translation> — {system}: {baseline} 대비 {0}개 부분 얻음, {1}개 잃음</translation>
    </message>
    <message>
        <source> — {system}: {0} parts gained, {1} lost against {baseline}</source>
        <translation> — {system}: {baseline} 대비 {0}개 부분 얻음, {1}개 잃음</translation>
    </message>
    <message>
        <source>{label}: no highlights or breakdown for this row — {note}</source>
        <translation>{label}: 이 행에는 강조 표시나 세부 내역이 없습니다 — {note}</translation>
    </message>
</context>
<context>
    <name>DistributionsPanel</name>
    <message>
        <source>The score column both histograms show</source>
        <translation>두 히스토그램에 표시할 점수 열</translation>
    </message>
    <message>
        <source>Whose scores a dragged range or a clicked bar of the left histogram selects</source>
        <translation>왼쪽 히스토그램에서 범위를 끌거나 막대를 클릭할 때 선택할 시스템</translation>
    </message>
    <message>
        <source>System A of the difference A − B</source>
        <translation>차이 A − B의 시스템 A</translation>
    </message>
    <message>
        <source>System B of the difference A − B</source>
        <translation>차이 A − B의 시스템 B</translation>
    </message>
    <message>
        <source>Score:</source>
        <translation>점수:</translation>
    </message>
    <message>
        <source>Select by:</source>
        <translation>선택 기준:</translation>
    </message>
    <message>
        <source>Difference:</source>
        <translation>차이:</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>세그먼트 수</translation>
    </message>
    <message>
        <source>Open a comparison to see its score distributions.</source>
        <translation>비교를 열면 점수 분포를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Scoring… the distributions appear with the first scores.</source>
        <translation>채점 중… 첫 점수가 나오면 분포가 표시됩니다.</translation>
    </message>
    <message>
        <source>all {0:,} segments</source>
        <translation>전체 세그먼트 {0:,}개</translation>
    </message>
    <message>
        <source>{shown:,} of {n_total:,} segments (the current selection)</source>
        <translation>세그먼트 {n_total:,}개 중 {shown:,}개 (현재 선택)</translation>
    </message>
    <message>
        <source> Scoring: {0:,} scored so far.</source>
        <translation> 채점 중: 지금까지 {0:,}개 채점됨.</translation>
    </message>
    <message>
        <source>Sentence {0}{1} over {scope}.{scoring} Drag across a histogram to select the segments in that range; click a bar to select its segments.</source>
        <translation>{scope}에 대한 문장 {0}{1}.{scoring} 히스토그램에서 끌면 그 범위의 세그먼트를 선택하고, 막대를 클릭하면 해당 세그먼트를 선택합니다.</translation>
    </message>
    <message>
        <source>sentence {0}</source>
        <translation>문장 {0}</translation>
    </message>
    <message>
        <source>Sentence {0} per system</source>
        <translation>시스템별 문장 {0}</translation>
    </message>
    <message>
        <source>{a} − {b} (sentence {0})</source>
        <translation>{a} − {b} (문장 {0})</translation>
    </message>
    <message>
        <source>{a_name} − {b_name} per segment</source>
        <translation>세그먼트별 {a_name} − {b_name}</translation>
    </message>
    <message>
        <source>Pick two different systems</source>
        <translation>서로 다른 두 시스템을 고르세요</translation>
    </message>
</context>
<context>
    <name>EvidenceView</name>
    <message>
        <source>Metric evidence</source>
        <translation>지표 근거</translation>
    </message>
    <message>
        <source>Working out the matches of this segment…</source>
        <translation>이 세그먼트의 일치 부분을 계산하는 중…</translation>
    </message>
    <message>
        <source>Choose a segment.</source>
        <translation>세그먼트를 선택하세요.</translation>
    </message>
    <message>
        <source>Ref {0}</source>
        <translation>참조 {0}</translation>
    </message>
    <message>
        <source>{reference} — as {system} matched it</source>
        <translation>{reference} — {system}과(와) 일치한 부분</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <source>any text column</source>
        <translation>모든 텍스트 열</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>검색 중…</translation>
    </message>
    <message>
        <source>output in another language</source>
        <translation>다른 언어로 된 출력</translation>
    </message>
    <message>
        <source>output copying the source</source>
        <translation>원문을 복사한 출력</translation>
    </message>
    <message>
        <source>all rows</source>
        <translation>모든 행</translation>
    </message>
    <message>
        <source>rows with an empty text</source>
        <translation>빈 텍스트가 있는 행</translation>
    </message>
    <message>
        <source>length-mismatched rows</source>
        <translation>길이가 맞지 않는 행</translation>
    </message>
    <message>
        <source>ROUGE-Lsum = ROUGE-L rows</source>
        <translation>ROUGE-Lsum = ROUGE-L인 행</translation>
    </message>
    <message>
        <source>{0:,} row</source>
        <translation>{0:,}행</translation>
    </message>
    <message>
        <source>{0:,} rows</source>
        <translation>{0:,}행</translation>
    </message>
    <message>
        <source>Search the texts ({shortcut})</source>
        <translation>텍스트 검색 ({shortcut})</translation>
    </message>
    <message>
        <source>Regular expression (Python syntax, plus Unicode properties such as \p{Han})</source>
        <translation>정규식 (Python 문법, \p{Han} 같은 유니코드 속성 포함)</translation>
    </message>
    <message>
        <source>Aa</source>
        <translation>Aa</translation>
    </message>
    <message>
        <source>Case sensitive</source>
        <translation>대소문자 구분</translation>
    </message>
    <message>
        <source>Where to search</source>
        <translation>검색할 위치</translation>
    </message>
    <message>
        <source>Show only rows of a kind</source>
        <translation>특정 종류의 행만 표시</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>필터 지우기</translation>
    </message>
    <message>
        <source>0 of 0 rows</source>
        <translation>0/0행</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>Keep rows whose score lies in a range</source>
        <translation>점수가 범위 안에 있는 행만 남기기</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>차이</translation>
    </message>
    <message>
        <source>Keep rows where system A beats system B by at least x (on a penalty such as MQM, beating is scoring lower: A − B ≤ −x)</source>
        <translation>시스템 A가 시스템 B보다 x 이상 앞서는 행만 남기기 (MQM처럼 감점식 지표에서는 더 낮은 점수가 앞서는 것: A − B ≤ −x)</translation>
    </message>
    <message>
        <source>in</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>표시</translation>
    </message>
    <message>
        <source>of</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>{visible} of the first {total} rows</source>
        <translation>처음 {total}행 중 {visible}행</translation>
    </message>
    <message>
        <source>{total} rows</source>
        <translation>{total}행</translation>
    </message>
    <message>
        <source>{visible} of {total} rows</source>
        <translation>{visible}/{total}행</translation>
    </message>
    <message>
        <source>segments {0}</source>
        <translation>세그먼트 {0}</translation>
    </message>
    <message>
        <source>text {0} in {1}</source>
        <translation>{1}에서 텍스트 {0}</translation>
    </message>
    <message>
        <source>an empty output</source>
        <translation>빈 출력</translation>
    </message>
    <message>
        <source>an empty reference</source>
        <translation>빈 참조 번역</translation>
    </message>
    <message>
        <source>an empty text</source>
        <translation>빈 텍스트</translation>
    </message>
    <message>
        <source>rows with {what}</source>
        <translation>{what}이(가) 있는 행</translation>
    </message>
    <message>
        <source>rows without {what}</source>
        <translation>{what}이(가) 없는 행</translation>
    </message>
    <message>
        <source>length ratio outside [{0}, {1}]</source>
        <translation>길이 비율이 [{0}, {1}] 밖</translation>
    </message>
    <message>
        <source>length ratio inside [{0}, {1}]</source>
        <translation>길이 비율이 [{0}, {1}] 안</translation>
    </message>
    <message>
        <source>rows flagged {0}</source>
        <translation>{0} 표시가 된 행</translation>
    </message>
    <message>
        <source>The language check runs once the comparison is read</source>
        <translation>비교를 읽은 뒤 언어 검사가 실행됩니다</translation>
    </message>
    <message>
        <source>Open the comparison with its source file to find copies</source>
        <translation>복사를 찾으려면 원문 파일과 함께 비교를 여세요</translation>
    </message>
    <message>
        <source>The references are in no clear language</source>
        <translation>참조 번역의 언어가 분명하지 않습니다</translation>
    </message>
</context>
<context>
    <name>FilterChip</name>
    <message>
        <source>{text}
Set outside the filter bar; ✕ removes this filter.</source>
        <translation>{text}
필터 막대 밖에서 설정됨. ✕를 누르면 이 필터가 제거됩니다.</translation>
    </message>
    <message>
        <source>Remove this filter</source>
        <translation>이 필터 제거</translation>
    </message>
    <message>
        <source>Remove the filter {text}</source>
        <translation>필터 {text} 제거</translation>
    </message>
</context>
<context>
    <name>InfluenceModel</name>
    <message>
        <source>Segment {0}: without it, {a} − {b} would be {1:.4f} {2} (it helps {side}). Click to show it in the table.</source>
        <translation>세그먼트 {0}: 이 세그먼트가 없으면 {a} − {b}는 {1:.4f} {2}입니다 ({side}에 유리). 클릭하면 표에 표시합니다.</translation>
    </message>
    <message>
        <source>score(A) − score(B) over the rows shown, minus the same without this segment</source>
        <translation>표시된 행에 대한 score(A) − score(B)에서 이 세그먼트를 뺀 같은 값을 뺀 것</translation>
    </message>
</context>
<context>
    <name>InputRow</name>
    <message>
        <source>name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>The system&apos;s name in the table and the CSV</source>
        <translation>표와 CSV에 쓰이는 시스템 이름</translation>
    </message>
    <message>
        <source>{role} file (.txt, .tsv, .csv, .jsonl)</source>
        <translation>{role} 파일 (.txt, .tsv, .csv, .jsonl)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>column / key</source>
        <translation>열 / 키</translation>
    </message>
    <message>
        <source>TSV/CSV: a header name or a 1-based column number; JSONL: a (dotted) key</source>
        <translation>TSV/CSV: 헤더 이름 또는 1부터 시작하는 열 번호, JSONL: (점으로 구분된) 키</translation>
    </message>
    <message>
        <source>File format; auto = from the extension</source>
        <translation>파일 형식 (auto = 확장자로 판단)</translation>
    </message>
    <message>
        <source>Remove this {role}</source>
        <translation>이 {role} 제거</translation>
    </message>
    <message>
        <source>Choose the {0} file</source>
        <translation>{0} 파일 선택</translation>
    </message>
    <message>
        <source>Text files (*.txt *.tsv *.csv *.jsonl *.ndjson);;All files (*)</source>
        <translation>텍스트 파일 (*.txt *.tsv *.csv *.jsonl *.ndjson);;모든 파일 (*)</translation>
    </message>
</context>
<context>
    <name>JobPanel</name>
    <message>
        <source>This view could not be computed</source>
        <translation>이 보기를 계산할 수 없습니다</translation>
    </message>
    <message>
        <source>{failure}: {0}</source>
        <translation>{failure}: {0}</translation>
    </message>
    <message>
        <source>The buckets could not be computed</source>
        <translation>구간을 계산할 수 없습니다</translation>
    </message>
    <message>
        <source>The references could not be scored</source>
        <translation>참조 번역을 채점할 수 없습니다</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>시스템 언어</translation>
    </message>
</context>
<context>
    <name>LatexExporter</name>
    <message>
        <source>Export &amp;LaTeX table…</source>
        <translation>LaTeX 표 내보내기(&amp;L)…</translation>
    </message>
    <message>
        <source>Corpus scores of the rows shown as a LaTeX table for a paper: best in bold, daggers against the baseline, significance clusters (as matchlight compare --latex)</source>
        <translation>표시된 행의 코퍼스 점수를 논문용 LaTeX 표로 만듭니다. 최고 점수는 굵게, 기준 시스템 대비 유의한 차이는 단검표(†)로, 유의성 군집도 함께 표시합니다 (matchlight compare --latex와 같음)</translation>
    </message>
    <message>
        <source>Export LaTeX table</source>
        <translation>LaTeX 표 내보내기</translation>
    </message>
    <message>
        <source>Open a comparison of two systems or more and wait until it is scored.</source>
        <translation>시스템이 둘 이상인 비교를 열고 채점이 끝날 때까지 기다리세요.</translation>
    </message>
    <message>
        <source>A LaTeX table is being written to {0} already.</source>
        <translation>이미 {0}에 LaTeX 표를 쓰는 중입니다.</translation>
    </message>
    <message>
        <source>Testing the systems for the LaTeX table…</source>
        <translation>LaTeX 표를 위해 시스템을 검정하는 중…</translation>
    </message>
    <message>
        <source>LaTeX table written to {path}</source>
        <translation>LaTeX 표를 {path}에 저장했습니다</translation>
    </message>
</context>
<context>
    <name>LegendWidget</name>
    <message>
        <source>Legend: {text}</source>
        <translation>범례: {text}</translation>
    </message>
    <message>
        <source>Each part is shaded by the longest matched n-gram it belongs to: the further along the scale, the longer the match.</source>
        <translation>각 부분은 자신이 속한 가장 긴 일치 n-gram에 따라 음영이 달라집니다. 척도에서 오른쪽으로 갈수록 더 긴 일치입니다.</translation>
    </message>
    <message>
        <source>Tokens of the longest common subsequence of output and reference.</source>
        <translation>출력과 참조 번역의 최장 공통 부분 수열(LCS)에 속한 토큰입니다.</translation>
    </message>
    <message>
        <source>Against the baseline: bold underlined text is matched by the chosen system and not by the baseline; struck-through text the reverse.</source>
        <translation>기준 시스템 대비: 굵은 밑줄 텍스트는 선택한 시스템만 일치한 부분이고, 취소선 텍스트는 그 반대입니다.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Corpus summary</source>
        <translation>코퍼스 요약</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop scoring; the rows scored so far stay</source>
        <translation>채점을 중지합니다. 지금까지 채점한 행은 유지됩니다</translation>
    </message>
    <message>
        <source>Resume scoring</source>
        <translation>채점 재개</translation>
    </message>
    <message>
        <source>Score the rows left when scoring was cancelled</source>
        <translation>채점을 취소했을 때 남은 행을 채점합니다</translation>
    </message>
    <message>
        <source>any system</source>
        <translation>모든 시스템</translation>
    </message>
    <message>
        <source>Scoring {done:,} / {total:,}</source>
        <translation>채점 중 {done:,} / {total:,}</translation>
    </message>
    <message>
        <source>Scoring…</source>
        <translation>채점 중…</translation>
    </message>
    <message>
        <source>Move between rows</source>
        <translation>행 사이 이동</translation>
    </message>
    <message>
        <source>Up / Down, Page Up / Page Down</source>
        <translation>Up / Down, Page Up / Page Down</translation>
    </message>
    <message>
        <source>Annotation</source>
        <translation>주석</translation>
    </message>
</context>
<context>
    <name>NgramModel</name>
    <message>
        <source>“{0}” ({1}-gram): matched {2:,} times by {a} and {3:,} times by {b}, in {4:,} segments. Click to select those segments.</source>
        <translation>“{0}” ({1}-gram): 세그먼트 {4:,}개에서 {a}가 {2:,}회, {b}가 {3:,}회 일치. 클릭하면 해당 세그먼트를 선택합니다.</translation>
    </message>
    <message>
        <source>times A&apos;s output matches it in the references (clipped)</source>
        <translation>A의 출력이 참조 번역에서 일치한 횟수 (클리핑 적용)</translation>
    </message>
    <message>
        <source>times B&apos;s output matches it in the references (clipped)</source>
        <translation>B의 출력이 참조 번역에서 일치한 횟수 (클리핑 적용)</translation>
    </message>
    <message>
        <source>(A + 1) / (A + B + 2): near 1 when only A matches it, near 0 when only B does</source>
        <translation>(A + 1) / (A + B + 2): A만 일치하면 1에 가깝고, B만 일치하면 0에 가까움</translation>
    </message>
</context>
<context>
    <name>OpenComparisonDialog</name>
    <message>
        <source>Open comparison — Matchlight</source>
        <translation>비교 열기 — Matchlight</translation>
    </message>
    <message>
        <source>Line-aligned files: one segment per line (or one row of a TSV/CSV/JSONL file). All files must have the same number of segments.</source>
        <translation>줄 단위로 정렬된 파일: 한 줄(또는 TSV/CSV/JSONL 파일의 한 행)이 세그먼트 하나입니다. 모든 파일의 세그먼트 수가 같아야 합니다.</translation>
    </message>
    <message>
        <source>Source (optional)</source>
        <translation>원문 (선택 사항)</translation>
    </message>
    <message>
        <source>System outputs</source>
        <translation>시스템 출력</translation>
    </message>
    <message>
        <source>system</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>Files dropped with the comparison that are not one of its texts. Add any of them by hand with Add reference / Add system if they are.</source>
        <translation>비교와 함께 끌어다 놓았지만 비교할 텍스트가 아닌 파일입니다. 비교할 텍스트라면 &quot;참조 번역 추가&quot; / &quot;시스템 추가&quot;로 직접 추가하세요.</translation>
    </message>
    <message>
        <source>Stop reading</source>
        <translation>읽기 중지</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop reading the files; the dialog stays open</source>
        <translation>파일 읽기를 중지합니다. 대화 상자는 열린 채로 있습니다</translation>
    </message>
    <message>
        <source>Reading {count} file…</source>
        <translation>파일 {count}개를 읽는 중…</translation>
    </message>
    <message>
        <source>Reading {count} files…</source>
        <translation>파일 {count}개를 읽는 중…</translation>
    </message>
    <message>
        <source>Could not read the files: {error} ({0})</source>
        <translation>파일을 읽을 수 없습니다: {error} ({0})</translation>
    </message>
    <message>
        <source>Reading stopped.</source>
        <translation>읽기를 중지했습니다.</translation>
    </message>
</context>
<context>
    <name>PairwiseModel</name>
    <message>
        <source>significant at p ≤ {0:.4g} (Bonferroni: {ALPHA} / pairs)</source>
        <translation>p ≤ {0:.4g}에서 유의함 (본페로니 보정: {ALPHA} / 쌍의 수)</translation>
    </message>
</context>
<context>
    <name>ReadingPage</name>
    <message>
        <source>&lt;h2&gt;Reading the files…&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;파일을 읽는 중…&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop reading; nothing is opened</source>
        <translation>읽기를 중지합니다. 아무것도 열지 않습니다</translation>
    </message>
    <message>
        <source>{0} files from {folder}:</source>
        <translation>{folder}의 파일 {0}개:</translation>
    </message>
    <message>
        <source>{0} files:</source>
        <translation>파일 {0}개:</translation>
    </message>
</context>
<context>
    <name>RecentList</name>
    <message>
        <source>Clear the list</source>
        <translation>목록 지우기</translation>
    </message>
</context>
<context>
    <name>RecentSessions</name>
    <message>
        <source>Recent sessions</source>
        <translation>최근 세션</translation>
    </message>
</context>
<context>
    <name>ReferenceModel</name>
    <message>
        <source>{0:,} of {1:,} lines of {2} equal {3} (other systems: {4:g}, median)</source>
        <translation>{2}의 {1:,}줄 중 {0:,}줄이 {3}과(와) 같습니다 (다른 시스템: 중앙값 {4:g})</translation>
    </message>
    <message>
        <source>corpus {0} against all {n_refs} references</source>
        <translation>참조 번역 {n_refs}개 전체에 대한 코퍼스 {0}</translation>
    </message>
    <message>
        <source>lines equal to {name} (whitespace normalised); near: sentence {0} ≥ {1:g} against {name} alone</source>
        <translation>{name}과(와) 같은 줄 (공백 정규화), 근접: {name} 하나만 기준으로 문장 {0} ≥ {1:g}</translation>
    </message>
</context>
<context>
    <name>ReferencesPanel</name>
    <message>
        <source>The score computed against each reference alone</source>
        <translation>각 참조 번역 하나만으로 계산한 점수</translation>
    </message>
    <message>
        <source>Score:</source>
        <translation>점수:</translation>
    </message>
    <message>
        <source>Open a comparison to see what each reference contributes.</source>
        <translation>비교를 열면 각 참조 번역의 기여도를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Scoring… this view appears when every segment is scored.</source>
        <translation>채점 중… 모든 세그먼트의 채점이 끝나면 이 보기가 표시됩니다.</translation>
    </message>
    <message>
        <source>Corpus {0} of each system against each reference alone and against all {n_refs}, over {1:,} segments, scored by the engine with one reference at a time. &apos;= ref&apos; counts the lines identical to that reference (near: sentence {2} ≥ {3:g} against it alone); a reference far closer to one system than to the others is flagged.</source>
        <translation>세그먼트 {1:,}개에 대해 각 시스템의 코퍼스 {0}을(를) 참조 번역 하나씩, 그리고 참조 번역 {n_refs}개 전체를 기준으로 계산했습니다 (엔진이 참조 번역을 하나씩 채점). &apos;= ref&apos;는 해당 참조 번역과 똑같은 줄 수입니다 (근접: 그 참조 번역만 기준으로 문장 {2} ≥ {3:g}). 다른 시스템보다 한 시스템에 훨씬 가까운 참조 번역은 표시됩니다.</translation>
    </message>
    <message>
        <source>One reference: corpus {0} per system, and the lines identical to the reference, over {1:,} segments.</source>
        <translation>참조 번역 1개: 세그먼트 {1:,}개에 대한 시스템별 코퍼스 {0}과(와) 참조 번역과 똑같은 줄.</translation>
    </message>
</context>
<context>
    <name>ReportExporter</name>
    <message>
        <source>Export &amp;HTML report…</source>
        <translation>HTML 보고서 내보내기(&amp;H)…</translation>
    </message>
    <message>
        <source>One self-contained HTML page: corpus scores, charts, significance, annotations and the selected rows with their highlights, as matchlight report writes it</source>
        <translation>코퍼스 점수, 차트, 유의성, 주석, 선택한 행과 강조 표시를 담은 독립형 HTML 페이지 한 장 (matchlight report가 만드는 것과 같음)</translation>
    </message>
    <message>
        <source>Export HTML report</source>
        <translation>HTML 보고서 내보내기</translation>
    </message>
    <message>
        <source>Open a comparison and wait until every row is scored.</source>
        <translation>비교를 열고 모든 행의 채점이 끝날 때까지 기다리세요.</translation>
    </message>
    <message>
        <source>A report is being written to {0} already.</source>
        <translation>이미 {0}에 보고서를 쓰는 중입니다.</translation>
    </message>
    <message>
        <source>Writing the HTML report…</source>
        <translation>HTML 보고서를 쓰는 중…</translation>
    </message>
    <message>
        <source>Writing the report to {target}…</source>
        <translation>{target}에 보고서를 쓰는 중…</translation>
    </message>
    <message>
        <source>Report written to {path}</source>
        <translation>보고서를 {path}에 저장했습니다</translation>
    </message>
</context>
<context>
    <name>ScatterPanel</name>
    <message>
        <source>The score column of both axes</source>
        <translation>두 축의 점수 열</translation>
    </message>
    <message>
        <source>The system on the horizontal axis</source>
        <translation>가로축의 시스템</translation>
    </message>
    <message>
        <source>The system on the vertical axis</source>
        <translation>세로축의 시스템</translation>
    </message>
    <message>
        <source>Score:</source>
        <translation>점수:</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>보기 초기화</translation>
    </message>
    <message>
        <source>Show every point again after zooming</source>
        <translation>확대 후 모든 점을 다시 표시</translation>
    </message>
    <message>
        <source>Open a comparison to compare two systems segment by segment.</source>
        <translation>비교를 열면 두 시스템을 세그먼트별로 비교할 수 있습니다.</translation>
    </message>
    <message>
        <source>Scoring… the scatter appears with the first scores.</source>
        <translation>채점 중… 첫 점수가 나오면 산점도가 표시됩니다.</translation>
    </message>
    <message>
        <source>{name} (sentence {0})</source>
        <translation>{name} (문장 {0})</translation>
    </message>
    <message>
        <source> The {marked:,} segments of the current selection are marked.</source>
        <translation> 현재 선택된 세그먼트 {marked:,}개가 표시되어 있습니다.</translation>
    </message>
    <message>
        <source> ({0:,} distinct spots drawn)</source>
        <translation> (서로 다른 점 {0:,}개 그림)</translation>
    </message>
    <message>
        <source>{0:,} segments, one point each{spots}.{mark_note} Click a point to show its segment in the table; drag a box to select the segments inside it; the wheel zooms.</source>
        <translation>세그먼트 {0:,}개, 세그먼트마다 점 하나{spots}.{mark_note} 점을 클릭하면 표에 해당 세그먼트를 표시하고, 상자를 끌면 그 안의 세그먼트를 선택하며, 휠로 확대/축소합니다.</translation>
    </message>
</context>
<context>
    <name>SegmentTableModel</name>
    <message>
        <source>{name}, segment {0}: not scored yet</source>
        <translation>{name}, 세그먼트 {0}: 아직 채점되지 않음</translation>
    </message>
    <message>
        <source>; lower is better</source>
        <translation>, 낮을수록 좋음</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>원문</translation>
    </message>
    <message>
        <source>Segment number (line in the input files)</source>
        <translation>세그먼트 번호 (입력 파일의 줄 번호)</translation>
    </message>
    <message>
        <source>Source text</source>
        <translation>원문</translation>
    </message>
    <message>
        <source>Reference {0}</source>
        <translation>참조 번역 {0}</translation>
    </message>
    <message>
        <source>Output of {name}</source>
        <translation>{name}의 출력</translation>
    </message>
    <message>
        <source>higher</source>
        <translation>높을수록</translation>
    </message>
    <message>
        <source>lower</source>
        <translation>낮을수록</translation>
    </message>
    <message>
        <source>{0} of {name} minus that of the baseline {base} ({way} is better: green where the system is better, red where it is worse)</source>
        <translation>{name}의 {0}에서 기준 시스템 {base}의 값을 뺀 값 ({way} 좋음: 시스템이 더 나으면 초록, 더 나쁘면 빨강)</translation>
    </message>
    <message>
        <source>{0} of {name}: {description} ({way} is better)</source>
        <translation>{name}의 {0}: {description} ({way}수록 좋음)</translation>
    </message>
</context>
<context>
    <name>Selecting</name>
    <message>
        <source>«{text}»: click the last word of the error, or pick its category and severity.</source>
        <translation>«{text}»: 오류의 마지막 단어를 클릭하거나, 범주와 심각도를 고르세요.</translation>
    </message>
    <message>
        <source>«{text}»: click the last word of the error, or pick its severity.</source>
        <translation>«{text}»: 오류의 마지막 단어를 클릭하거나, 심각도를 고르세요.</translation>
    </message>
    <message>
        <source>«{text}» selected: pick a category and a severity, then press Enter.</source>
        <translation>«{text}» 선택됨: 범주와 심각도를 고른 뒤 Enter를 누르세요.</translation>
    </message>
    <message>
        <source>«{text}» selected: pick a severity, then press Enter.</source>
        <translation>«{text}» 선택됨: 심각도를 고른 뒤 Enter를 누르세요.</translation>
    </message>
</context>
<context>
    <name>SeparationPanel</name>
    <message>
        <source>System A</source>
        <translation>시스템 A</translation>
    </message>
    <message>
        <source>System B</source>
        <translation>시스템 B</translation>
    </message>
    <message>
        <source>The corpus score whose difference the segments move</source>
        <translation>세그먼트가 차이에 영향을 주는 코퍼스 점수</translation>
    </message>
    <message>
        <source>helping A most</source>
        <translation>A에 가장 유리한</translation>
    </message>
    <message>
        <source>helping B most</source>
        <translation>B에 가장 유리한</translation>
    </message>
    <message>
        <source>Corpus score:</source>
        <translation>코퍼스 점수:</translation>
    </message>
    <message>
        <source>Select these segments</source>
        <translation>이 세그먼트 선택</translation>
    </message>
    <message>
        <source>Show only the segments of this list in the table</source>
        <translation>표에 이 목록의 세그먼트만 표시</translation>
    </message>
    <message>
        <source>Segments</source>
        <translation>세그먼트</translation>
    </message>
    <message>
        <source>Open a comparison to see what separates two systems.</source>
        <translation>비교를 열면 두 시스템의 차이를 만드는 요인을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Two systems are needed.</source>
        <translation>시스템이 둘 필요합니다.</translation>
    </message>
    <message>
        <source>Scoring… this view appears when every segment is scored.</source>
        <translation>채점 중… 모든 세그먼트의 채점이 끝나면 이 보기가 표시됩니다.</translation>
    </message>
    <message>
        <source>Pick two different systems as A and B.</source>
        <translation>A와 B로 서로 다른 두 시스템을 고르세요.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Matched by {a_name}, not by {b_name}&lt;/b&gt;: n-grams (1–{MAX_ORDER}) {a_name} matches in the references more often than {b_name}</source>
        <translation>&lt;b&gt;{a_name}만 일치, {b_name}은(는) 불일치&lt;/b&gt;: {a_name}이(가) {b_name}보다 참조 번역에서 더 자주 일치시킨 n-gram (1–{MAX_ORDER})</translation>
    </message>
    <message>
        <source>&lt;b&gt;Matched by {b_name}, not by {a_name}&lt;/b&gt;: n-grams {b_name} matches in the references more often than {a_name}</source>
        <translation>&lt;b&gt;{b_name}만 일치, {a_name}은(는) 불일치&lt;/b&gt;: {b_name}이(가) {a_name}보다 참조 번역에서 더 자주 일치시킨 n-gram</translation>
    </message>
    <message>
        <source>helping {a_name} most</source>
        <translation>{a_name}에 가장 유리한</translation>
    </message>
    <message>
        <source>helping {b_name} most</source>
        <translation>{b_name}에 가장 유리한</translation>
    </message>
    <message>
        <source>; lower is better</source>
        <translation>, 낮을수록 좋음</translation>
    </message>
    <message>
        <source>Over {0:,} segments; {1:,} distinct n-grams are matched by either system. compare-mt&apos;s score (matches of A + {ALPHA:g}) / (matches of A + matches of B + {2:g}), top {TOP} each way, BLEU&apos;s tokens.{lead} Click an n-gram to select the segments where it is matched; click a segment to show it in the table.</source>
        <translation>세그먼트 {0:,}개에서 두 시스템 중 하나라도 일치시킨 서로 다른 n-gram은 {1:,}개입니다. compare-mt 점수 (A의 일치 + {ALPHA:g}) / (A의 일치 + B의 일치 + {2:g}), 방향별 상위 {TOP}개, BLEU 토큰 기준.{lead} n-gram을 클릭하면 일치한 세그먼트를 선택하고, 세그먼트를 클릭하면 표에 표시합니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;What moves the corpus {label}&lt;/b&gt;: not available — {0}</source>
        <translation>&lt;b&gt;코퍼스 {label}을(를) 움직이는 요인&lt;/b&gt;: 사용할 수 없음 — {0}</translation>
    </message>
    <message>
        <source>&lt;b&gt;What moves the corpus {label}&lt;/b&gt;: segments whose removal would change {a_name} − {b_name} most, {side}&apos;s way</source>
        <translation>&lt;b&gt;코퍼스 {label}을(를) 움직이는 요인&lt;/b&gt;: 빼면 {a_name} − {b_name}이(가) {side} 쪽으로 가장 크게 바뀌는 세그먼트</translation>
    </message>
    <message>
        <source>“{0}” matched by {a} or {b}</source>
        <translation>{a} 또는 {b}가 일치시킨 “{0}”</translation>
    </message>
    <message>
        <source>the {0} segments helping {side} most ({label} {a} − {b})</source>
        <translation>{side}에 가장 유리한 세그먼트 {0}개 ({label} {a} − {b})</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>Session: not saved yet (the first edit starts one)</source>
        <translation>세션: 아직 저장되지 않음 (첫 편집 때 시작됨)</translation>
    </message>
    <message>
        <source>Session: read-only copy of {0} — Save session as… to edit</source>
        <translation>세션: {0}의 읽기 전용 사본 — 편집하려면 &quot;다른 이름으로 세션 저장…&quot;</translation>
    </message>
    <message>
        <source>Session: NOT SAVED ({lost}) — Save session as… to keep {0} errors</source>
        <translation>세션: 저장되지 않음 ({lost}) — 오류 {0}개를 보존하려면 &quot;다른 이름으로 세션 저장…&quot;</translation>
    </message>
    <message>
        <source>Session: {0} edits not saved yet ({1}); retrying</source>
        <translation>세션: 편집 {0}개가 아직 저장되지 않음 ({1}), 다시 시도하는 중</translation>
    </message>
    <message>
        <source>Session: untitled (autosaved)</source>
        <translation>세션: 제목 없음 (자동 저장됨)</translation>
    </message>
    <message>
        <source>Session: {0}</source>
        <translation>세션: {0}</translation>
    </message>
    <message>
        <source>Open &amp;session…</source>
        <translation>세션 열기(&amp;S)…</translation>
    </message>
    <message>
        <source>Open a Matchlight session (.matchlight)</source>
        <translation>Matchlight 세션 열기 (.matchlight)</translation>
    </message>
    <message>
        <source>Save session &amp;as…</source>
        <translation>다른 이름으로 세션 저장(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the annotations, settings and selection under a name of your choosing</source>
        <translation>주석, 설정, 선택을 원하는 이름으로 저장</translation>
    </message>
    <message>
        <source>Cannot read the annotations</source>
        <translation>주석을 읽을 수 없습니다</translation>
    </message>
    <message>
        <source>Session opened</source>
        <translation>세션을 열었습니다</translation>
    </message>
    <message>
        <source>This is a read-only copy of a session: use Save session as… to edit it.</source>
        <translation>세션의 읽기 전용 사본입니다. 편집하려면 &quot;다른 이름으로 세션 저장…&quot;을 사용하세요.</translation>
    </message>
    <message>
        <source>Cannot keep the annotations</source>
        <translation>주석을 보존할 수 없습니다</translation>
    </message>
    <message>
        <source>{exc}

The annotation was not made: Matchlight saves every edit at once.</source>
        <translation>{exc}

주석이 추가되지 않았습니다. Matchlight는 모든 편집을 즉시 저장합니다.</translation>
    </message>
    <message>
        <source>Your edits are not in the session file</source>
        <translation>편집 내용이 세션 파일에 없습니다</translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation>세션을 저장할 수 없습니다</translation>
    </message>
    <message>
        <source>{0}; nothing more is written to it. Your edits are kept: use Save as to keep them in a file.</source>
        <translation>{0}. 이 파일에는 더 이상 쓰지 않습니다. 편집 내용은 유지되므로 &quot;다른 이름으로 저장&quot;으로 파일에 보존하세요.</translation>
    </message>
    <message>
        <source>Every edit is saved again.</source>
        <translation>모든 편집이 다시 저장되고 있습니다.</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>다른 이름으로 저장…</translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation>세션을 열 수 없습니다</translation>
    </message>
    <message>
        <source>{target}: no such session file</source>
        <translation>{target}: 세션 파일이 없습니다</translation>
    </message>
    <message>
        <source>

The file was not changed.</source>
        <translation>

파일은 변경되지 않았습니다.</translation>
    </message>
    <message>
        <source>

You can open a read-only copy of it to see (and save elsewhere) what can be read.</source>
        <translation>

읽기 전용 사본을 열어 읽을 수 있는 내용을 확인하고 다른 곳에 저장할 수 있습니다.</translation>
    </message>
    <message>
        <source>Open a read-only copy</source>
        <translation>읽기 전용 사본 열기</translation>
    </message>
    <message>
        <source>Nothing to save</source>
        <translation>저장할 내용 없음</translation>
    </message>
    <message>
        <source>Open a comparison first.</source>
        <translation>먼저 비교를 여세요.</translation>
    </message>
    <message>
        <source>Save session as</source>
        <translation>다른 이름으로 세션 저장</translation>
    </message>
    <message>
        <source>Matchlight sessions (*{SUFFIX})</source>
        <translation>Matchlight 세션 (*{SUFFIX})</translation>
    </message>
    <message>
        <source>Saved the session as {saved}</source>
        <translation>세션을 {saved}(으)로 저장했습니다</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>세션 열기</translation>
    </message>
    <message>
        <source>Matchlight sessions (*{SUFFIX});;All files (*)</source>
        <translation>Matchlight 세션 (*{SUFFIX});;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Cannot discard the session</source>
        <translation>세션을 삭제할 수 없습니다</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Scoring settings — Matchlight</source>
        <translation>채점 설정 — Matchlight</translation>
    </message>
</context>
<context>
    <name>SettingsPanel</name>
    <message>
        <source>Metrics to score</source>
        <translation>채점할 지표</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <source>separator text, e.g. &lt;/s&gt;</source>
        <translation>구분 텍스트 (예: &lt;/s&gt;)</translation>
    </message>
    <message>
        <source>Sentence separator</source>
        <translation>문장 구분자</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts — Matchlight</source>
        <translation>단축키 — Matchlight</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>동작</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>단축키</translation>
    </message>
</context>
<context>
    <name>SignificanceModel</name>
    <message>
        <source>{0} of {1}: {untested} on these rows</source>
        <translation>{1}의 {0}: 이 행에서는 {untested}</translation>
    </message>
    <message>
        <source>bootstrap mean {0!r}, 95% CI ± {1!r}</source>
        <translation>부트스트랩 평균 {0!r}, 95% 신뢰구간 ± {1!r}</translation>
    </message>
    <message>
        <source>p-value {0!r} against the baseline</source>
        <translation>기준 시스템 대비 p값 {0!r}</translation>
    </message>
    <message>
        <source>{verdict} than the baseline</source>
        <translation>기준 시스템보다 {verdict}</translation>
    </message>
    <message>
        <source>no significant difference</source>
        <translation>유의한 차이 없음</translation>
    </message>
</context>
<context>
    <name>SignificancePanel</name>
    <message>
        <source>The tests failed</source>
        <translation>검정에 실패했습니다</translation>
    </message>
    <message>
        <source>Paired bootstrap ({DEFAULT_BOOTSTRAP_SAMPLES:,} resamples)</source>
        <translation>대응 부트스트랩 (재표본 {DEFAULT_BOOTSTRAP_SAMPLES:,}회)</translation>
    </message>
    <message>
        <source>Approximate randomization ({DEFAULT_AR_TRIALS:,} trials)</source>
        <translation>근사 무작위화 검정 ({DEFAULT_AR_TRIALS:,}회 시행)</translation>
    </message>
    <message>
        <source>sacreBLEU&apos;s --paired-bs or --paired-ar</source>
        <translation>sacreBLEU의 --paired-bs 또는 --paired-ar</translation>
    </message>
    <message>
        <source>The random seed (sacreBLEU&apos;s default: 12345)</source>
        <translation>난수 시드 (sacreBLEU 기본값: 12345)</translation>
    </message>
    <message>
        <source>All pairs of</source>
        <translation>모든 쌍:</translation>
    </message>
    <message>
        <source>Also test every pair of systems on one column (many tests: see the note)</source>
        <translation>한 열에 대해 모든 시스템 쌍도 검정합니다 (검정 횟수가 많음: 설명 참조)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>Test every system against the baseline on the rows shown</source>
        <translation>표시된 행에서 각 시스템을 기준 시스템과 비교해 검정</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Copy the table as text</source>
        <translation>표를 텍스트로 복사</translation>
    </message>
    <message>
        <source>Test:</source>
        <translation>검정:</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>시드:</translation>
    </message>
    <message>
        <source>Open a comparison to test the systems against each other.</source>
        <translation>비교를 열면 시스템끼리 검정할 수 있습니다.</translation>
    </message>
    <message>
        <source>A paired test needs at least two systems.</source>
        <translation>대응 검정에는 시스템이 둘 이상 필요합니다.</translation>
    </message>
    <message>
        <source>the {0:,} selected segments</source>
        <translation>선택된 세그먼트 {0:,}개</translation>
    </message>
    <message>
        <source>all {0:,} segments</source>
        <translation>세그먼트 {0:,}개 전체</translation>
    </message>
    <message>
        <source>On {what}, against {baseline}.</source>
        <translation>{what}에서 {baseline}과(와) 비교.</translation>
    </message>
    <message>
        <source>Wait until every segment is scored</source>
        <translation>모든 세그먼트의 채점이 끝날 때까지 기다리세요</translation>
    </message>
    <message>
        <source>Each system is tested against the baseline on the segments shown, as sacreBLEU&apos;s --paired-bs / --paired-ar do. Press Run.</source>
        <translation>표시된 세그먼트에서 각 시스템을 기준 시스템과 비교해 검정합니다 (sacreBLEU의 --paired-bs / --paired-ar와 같음). &quot;실행&quot;을 누르세요.</translation>
    </message>
    <message>
        <source>Paired bootstrap resampling with {0:,} resamples</source>
        <translation>재표본 {0:,}회의 대응 부트스트랩 재표본추출</translation>
    </message>
    <message>
        <source>Paired approximate randomization with {0:,} trials (means and intervals from {DEFAULT_BOOTSTRAP_SAMPLES:,} bootstrap resamples)</source>
        <translation>{0:,}회 시행한 대응 근사 무작위화 검정 (평균과 구간은 부트스트랩 재표본 {DEFAULT_BOOTSTRAP_SAMPLES:,}회로 계산)</translation>
    </message>
    <message>
        <source>{0} ({1:,} segments lack a value for some system)</source>
        <translation>{0} (세그먼트 {1:,}개는 일부 시스템의 값이 없음)</translation>
    </message>
    <message>
        <source>{kind}, seed {0}, on {scope}, against {1}. Score (bootstrap mean ± 95% CI); p is the probability of a difference at least this large if the system and the baseline came from the same process; * marks p ≤ {ALPHA}, and then better or worse than the baseline says which way, by the column&apos;s direction.</source>
        <translation>{kind}, 시드 {0}, 대상 {scope}, 기준 {1}. 점수(부트스트랩 평균 ± 95% 신뢰구간). p는 시스템과 기준 시스템이 같은 과정에서 나왔다고 할 때 이만큼 이상의 차이가 날 확률입니다. *는 p ≤ {ALPHA}를 뜻하며, 이때 기준 시스템보다 나은지 못한지는 열의 방향에 따라 표시됩니다.</translation>
    </message>
    <message>
        <source> Lower is better for {0}.</source>
        <translation> {0}은(는) 낮을수록 좋습니다.</translation>
    </message>
    <message>
        <source> Each system&apos;s figure is its mean over the segments where it has a value: </source>
        <translation> 각 시스템의 수치는 값이 있는 세그먼트에 대한 평균입니다: </translation>
    </message>
    <message>
        <source> Not tested — </source>
        <translation> 검정하지 않음 — </translation>
    </message>
    <message>
        <source>These results are for other rows or another baseline: run again. </source>
        <translation>이 결과는 다른 행이나 다른 기준 시스템에 대한 것입니다. 다시 실행하세요. </translation>
    </message>
    <message>
        <source>The selection changed: the significance run was cancelled.</source>
        <translation>선택이 바뀌어 유의성 검정을 취소했습니다.</translation>
    </message>
    <message>
        <source>{failure}: {0}</source>
        <translation>{failure}: {0}</translation>
    </message>
    <message>
        <source>All pairs not tested: {0}</source>
        <translation>모든 쌍을 검정하지 않음: {0}</translation>
    </message>
    <message>
        <source>{label}: p-values of every pair of systems ({pairs} tests, the same resamples). Many pairwise tests inflate false positives: at p ≤ {ALPHA}, about one pair in twenty looks significant by chance alone, so * (bold, coloured) marks p ≤ {corrected:.4g}, the Bonferroni-corrected level ({ALPHA} / {pairs}).</source>
        <translation>{label}: 모든 시스템 쌍의 p값 (검정 {pairs}회, 같은 재표본). 쌍별 검정을 여러 번 하면 위양성이 늘어납니다. p ≤ {ALPHA}에서는 스무 쌍 중 한 쌍꼴로 우연만으로 유의해 보이므로, *(굵게, 색 표시)는 본페로니 보정 수준({ALPHA} / {pairs})인 p ≤ {corrected:.4g}를 뜻합니다.</translation>
    </message>
    <message>
        <source> With {0:,} {draws} no p-value is below {smallest:.4g}: no pair can reach that level.</source>
        <translation> {0:,}회의 {draws}(으)로는 p값이 {smallest:.4g}보다 작아질 수 없으므로 어떤 쌍도 그 수준에 이르지 못합니다.</translation>
    </message>
</context>
<context>
    <name>SummaryModel</name>
    <message>
        <source>significance cluster {rank} of {0} over {rows:,} rows</source>
        <translation>{rows:,}행 기준 유의성 군집 {rank}/{0}</translation>
    </message>
    <message>
        <source>; p = {p:.4f} against {head}, the best of cluster {0}</source>
        <translation>; 군집 {0}의 최고 시스템 {head} 대비 p = {p:.4f}</translation>
    </message>
    <message>
        <source>  filtered ({0})</source>
        <translation>  필터링됨 ({0})</translation>
    </message>
    <message>
        <source>all rows</source>
        <translation>모든 행</translation>
    </message>
    <message>
        <source>the rows the filter keeps</source>
        <translation>필터가 남긴 행</translation>
    </message>
    <message>
        <source>{0} over {1}</source>
        <translation>{1}에 대한 {0}</translation>
    </message>
</context>
<context>
    <name>SummaryWidget</name>
    <message>
        <source>{0} row</source>
        <translation>{0}행</translation>
    </message>
    <message>
        <source>{0} rows</source>
        <translation>{0}행</translation>
    </message>
    <message>
        <source>corpus {0}</source>
        <translation>코퍼스 {0}</translation>
    </message>
    <message>
        <source>mean {0}</source>
        <translation>평균 {0}</translation>
    </message>
    <message>
        <source>{what} over {rows} = {value} (higher is better)</source>
        <translation>{rows}에 대한 {what} = {value} (높을수록 좋음)</translation>
    </message>
    <message>
        <source>{what} over {rows} = {value} (lower is better)</source>
        <translation>{rows}에 대한 {what} = {value} (낮을수록 좋음)</translation>
    </message>
    <message>
        <source>A reference that equals one system&apos;s output on far more lines than any other system&apos;s favours that system: its figures above are inflated (Compare systems ▸ References scores each reference alone)</source>
        <translation>다른 시스템보다 한 시스템의 출력과 훨씬 많은 줄이 똑같은 참조 번역은 그 시스템에 유리하므로 위의 수치가 부풀려져 있습니다 (시스템 비교 ▸ 참조 번역에서 참조 번역을 하나씩 채점할 수 있음)</translation>
    </message>
    <message>
        <source>Corpus BLEU and chrF come from the summed statistics (as sacreBLEU&apos;s corpus scores); ROUGE F is the plain mean of the sentence scores.</source>
        <translation>코퍼스 BLEU와 chrF는 합산한 통계에서 계산합니다 (sacreBLEU의 코퍼스 점수와 같음). ROUGE F는 문장 점수의 단순 평균입니다.</translation>
    </message>
    <message>
        <source>The scoring settings that differ from sacreBLEU&apos;s and rouge-score&apos;s defaults (Scoring ▸ Scoring settings)</source>
        <translation>sacreBLEU와 rouge-score의 기본값과 다른 채점 설정 (채점 ▸ 채점 설정)</translation>
    </message>
    <message>
        <source>Rows of each system whose output is in another language than the references, and rows that copy the source (Show ▸ in the filter bar keeps them); lines too short to tell are never counted</source>
        <translation>시스템별로 출력이 참조 번역과 다른 언어인 행과 원문을 복사한 행 (필터 막대의 &quot;표시&quot;로 남길 수 있음). 판단하기에 너무 짧은 줄은 세지 않습니다</translation>
    </message>
    <message>
        <source>sentence BLEU</source>
        <translation>문장 BLEU</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>행 수</translation>
    </message>
    <message>
        <source>Sentence BLEU per system</source>
        <translation>시스템별 문장 BLEU</translation>
    </message>
    <message>
        <source>Click a bin to select that system&apos;s rows in it (the nearest curve)</source>
        <translation>구간을 클릭하면 그 안에 있는 해당 시스템(가장 가까운 곡선)의 행을 선택합니다</translation>
    </message>
    <message>
        <source>The reproducibility signatures of the figures above (sacreBLEU&apos;s and rouge-score&apos;s own where they exist); they are also written with every export</source>
        <translation>위 수치의 재현성 시그니처 (있는 경우 sacreBLEU와 rouge-score 자체의 것). 내보낼 때마다 함께 기록됩니다</translation>
    </message>
    <message>
        <source>Copy signatures</source>
        <translation>시그니처 복사</translation>
    </message>
    <message>
        <source>Copy the signatures to the clipboard</source>
        <translation>시그니처를 클립보드에 복사</translation>
    </message>
    <message>
        <source>Signatures</source>
        <translation>시그니처</translation>
    </message>
    <message>
        <source>Scoring…</source>
        <translation>채점 중…</translation>
    </message>
    <message>
        <source>Settings: {note}</source>
        <translation>설정: {note}</translation>
    </message>
    <message>
        <source>Settings: the reference tools&apos; defaults</source>
        <translation>설정: 참조 도구의 기본값</translation>
    </message>
    <message>
        <source>The first {total} rows, {0} scored; the rest is being read.</source>
        <translation>처음 {total}행 중 {0}행 채점됨. 나머지를 읽는 중입니다.</translation>
    </message>
    <message>
        <source>Scored {0} of {total} rows so far.</source>
        <translation>지금까지 {total}행 중 {0}행을 채점했습니다.</translation>
    </message>
    <message>
        <source>All {total} rows scored.</source>
        <translation>{total}행 모두 채점했습니다.</translation>
    </message>
    <message>
        <source>Filter keeps {0} rows.</source>
        <translation>필터 결과 {0}행.</translation>
    </message>
    <message>
        <source>filtered rows</source>
        <translation>필터링된 행</translation>
    </message>
    <message>
        <source>all rows</source>
        <translation>모든 행</translation>
    </message>
    <message>
        <source>sentence {0}</source>
        <translation>문장 {0}</translation>
    </message>
    <message>
        <source>Sentence {0} per system ({scope_name})</source>
        <translation>시스템별 문장 {0} ({scope_name})</translation>
    </message>
    <message>
        <source>The figures could not be computed: {0}</source>
        <translation>수치를 계산할 수 없습니다: {0}</translation>
    </message>
    <message>
        <source>Significance clusters [n] follow once the files are read and every row is scored.</source>
        <translation>파일을 모두 읽고 모든 행의 채점이 끝나면 유의성 군집 [n]이 표시됩니다.</translation>
    </message>
    <message>
        <source>Significance clusters [n] follow once every row is scored.</source>
        <translation>모든 행의 채점이 끝나면 유의성 군집 [n]이 표시됩니다.</translation>
    </message>
    <message>
        <source>Significance clusters [n]: paired tests of every pair of systems over {0}… {1}%</source>
        <translation>유의성 군집 [n]: {0}에 대해 모든 시스템 쌍을 대응 검정하는 중… {1}%</translation>
    </message>
    <message>
        <source>Significance clusters could not be computed: {message}</source>
        <translation>유의성 군집을 계산할 수 없습니다: {message}</translation>
    </message>
    <message>
        <source>all {0:,} rows</source>
        <translation>전체 {0:,}행</translation>
    </message>
    <message>
        <source> and the {0:,} filtered rows</source>
        <translation> 및 필터링된 {0:,}행</translation>
    </message>
    <message>
        <source>[n]: significance cluster (1 best) over {0}; paired bootstrap, p &lt; {SIGNIFICANCE_THRESHOLD}.</source>
        <translation>[n]: {0}에 대한 유의성 군집 (1이 최고), 대응 부트스트랩, p &lt; {SIGNIFICANCE_THRESHOLD}.</translation>
    </message>
    <message>
        <source>A system starts a new cluster when it is significantly worse (paired bootstrap, p &lt; {SIGNIFICANCE_THRESHOLD}, {CLUSTER_SAMPLES:,} resamples, seed {CLUSTER_SEED}) than the best system of the current cluster; the filtered rows are ranked on their own. A figure&apos;s tooltip says whom it was tested against.</source>
        <translation>현재 군집의 최고 시스템보다 유의하게 나쁘면(대응 부트스트랩, p &lt; {SIGNIFICANCE_THRESHOLD}, 재표본 {CLUSTER_SAMPLES:,}회, 시드 {CLUSTER_SEED}) 새 군집이 시작됩니다. 필터링된 행은 따로 순위를 매깁니다. 각 수치의 도움말에 비교 대상이 나옵니다.</translation>
    </message>
    <message>
        <source> Lower is better for {0}.</source>
        <translation> {0}은(는) 낮을수록 좋습니다.</translation>
    </message>
    <message>
        <source> Not ranked: </source>
        <translation> 순위 없음: </translation>
    </message>
</context>
<context>
    <name>TableColumns</name>
    <message>
        <source>Scores shown per system</source>
        <translation>시스템별로 표시할 점수</translation>
    </message>
    <message>
        <source>Copy this cell</source>
        <translation>이 셀 복사</translation>
    </message>
    <message>
        <source>Show the whole text…</source>
        <translation>전체 텍스트 보기…</translation>
    </message>
    <message>
        <source>Rows where {0} scores worse than {1} (baseline) on {label}</source>
        <translation>{label}에서 {0}이(가) {1}(기준)보다 낮은 행</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>필터 지우기</translation>
    </message>
    <message>
        <source>Copied segment {0} (every column).</source>
        <translation>세그먼트 {0}을(를) 복사했습니다 (모든 열).</translation>
    </message>
</context>
<context>
    <name>ToolsPanel</name>
    <message>
        <source>Minor</source>
        <translation>경미</translation>
    </message>
    <message>
        <source>Major</source>
        <translation>중대</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>치명</translation>
    </message>
    <message>
        <source>Severity {severity} (key {key})</source>
        <translation>심각도 {severity} (키 {key})</translation>
    </message>
    <message>
        <source>The ESA score is for ESA mode (Annotate menu).</source>
        <translation>ESA 점수는 ESA 모드에서 매깁니다 (주석 메뉴).</translation>
    </message>
    <message>
        <source>0 broken</source>
        <translation>0 엉망</translation>
    </message>
    <message>
        <source>33 flawed</source>
        <translation>33 결함</translation>
    </message>
    <message>
        <source>66 good</source>
        <translation>66 양호</translation>
    </message>
    <message>
        <source>100 perfect</source>
        <translation>100 완벽</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>확정</translation>
    </message>
    <message>
        <source>undecided</source>
        <translation>미결정</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>거부</translation>
    </message>
    <message>
        <source>neutral</source>
        <translation>중립</translation>
    </message>
    <message>
        <source>minor</source>
        <translation>경미</translation>
    </message>
    <message>
        <source>major</source>
        <translation>중대</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>치명</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>범주</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>{severity}  ({key})</source>
        <translation>{severity}  ({key})</translation>
    </message>
    <message>
        <source>Note (F2) — needed for Other</source>
        <translation>메모 (F2) — Other에는 필수</translation>
    </message>
    <message>
        <source>Add error  ⏎</source>
        <translation>오류 추가  ⏎</translation>
    </message>
    <message>
        <source>Add the error (Enter)</source>
        <translation>오류 추가 (Enter)</translation>
    </message>
    <message>
        <source>Drop  Esc</source>
        <translation>취소  Esc</translation>
    </message>
    <message>
        <source>Drop the drafted error and the selection (Escape)</source>
        <translation>작성 중인 오류와 선택 취소 (Escape)</translation>
    </message>
    <message>
        <source>Errors in this output</source>
        <translation>이 출력의 오류</translation>
    </message>
    <message>
        <source>Re-attach</source>
        <translation>다시 연결</translation>
    </message>
    <message>
        <source>Put the chosen lost error (not found) on the text selected on its side: the output, or the source (Shift+T) for a source error</source>
        <translation>선택한 잃어버린 오류(찾지 못함)를 해당 쪽에서 선택한 텍스트에 연결합니다: 출력, 또는 원문 오류는 원문(Shift+T)</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>The output&apos;s ESA score: drag, or arrows (±1) and Page Up/Down (±10); it is saved when you let go, press Enter or D, or move on</source>
        <translation>출력의 ESA 점수: 끌거나 화살표(±1), Page Up/Down(±10)으로 조정합니다. 손을 떼거나, Enter나 D를 누르거나, 다른 곳으로 이동하면 저장됩니다</translation>
    </message>
    <message>
        <source>Type the ESA score (E), then Enter</source>
        <translation>ESA 점수를 입력한 뒤 Enter (E)</translation>
    </message>
    <message>
        <source>Done — no further errors  (D)</source>
        <translation>완료 — 더 이상 오류 없음  (D)</translation>
    </message>
    <message>
        <source>{name} (key {0}; press again for its sub-categories)</source>
        <translation>{name} (키 {0}, 다시 누르면 하위 범주)</translation>
    </message>
    <message>
        <source>{name} (key {0})</source>
        <translation>{name} (키 {0})</translation>
    </message>
    <message>
        <source>{name}: no sub-categories</source>
        <translation>{name}: 하위 범주 없음</translation>
    </message>
    <message>
        <source>Sub-categories: choose a category first</source>
        <translation>하위 범주: 먼저 범주를 고르세요</translation>
    </message>
    <message>
        <source>{name} › (press {0} again to step through)</source>
        <translation>{name} › ({0} 키를 다시 누르면 차례로 선택)</translation>
    </message>
    <message>
        <source>Choose a segment to annotate.</source>
        <translation>주석을 달 세그먼트를 선택하세요.</translation>
    </message>
    <message>
        <source>On the error «{text}» in the source: the keys change it (Enter confirms, Backspace removes).</source>
        <translation>원문의 오류 «{text}» 위: 키로 바꿀 수 있습니다 (Enter 확정, Backspace 제거).</translation>
    </message>
    <message>
        <source>On the error «{text}» in the output: the keys change it (Enter confirms, Backspace removes).</source>
        <translation>출력의 오류 «{text}» 위: 키로 바꿀 수 있습니다 (Enter 확정, Backspace 제거).</translation>
    </message>
    <message>
        <source>Selected in the source: «{text}»</source>
        <translation>원문에서 선택됨: «{text}»</translation>
    </message>
    <message>
        <source>Selected in the output: «{text}»</source>
        <translation>출력에서 선택됨: «{text}»</translation>
    </message>
    <message>
        <source>Click the first and the last word of an error in the source (or drag, or Shift+arrows); Shift+T: the source.</source>
        <translation>원문에서 오류의 첫 단어와 마지막 단어를 클릭하세요(또는 끌기, Shift+화살표). Shift+T: 원문.</translation>
    </message>
    <message>
        <source>Click the first and the last word of an error in the output (or drag, or Shift+arrows); Shift+T: the source.</source>
        <translation>출력에서 오류의 첫 단어와 마지막 단어를 클릭하세요(또는 끌기, Shift+화살표). Shift+T: 원문.</translation>
    </message>
    <message>
        <source>Omission at “{text}‸…”</source>
        <translation>누락 위치: “{text}‸…”</translation>
    </message>
    <message>
        <source>Note (F2)</source>
        <translation>메모 (F2)</translation>
    </message>
    <message>
        <source>‸ omission</source>
        <translation>‸ 누락</translation>
    </message>
    <message>
        <source>source: {text}</source>
        <translation>원문: {text}</translation>
    </message>
    <message>
        <source>not found: {text}</source>
        <translation>찾지 못함: {text}</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source> (imported: Enter confirms, Backspace rejects)</source>
        <translation> (가져옴: Enter 확정, Backspace 거부)</translation>
    </message>
    <message>
        <source>Its text was not found again in the changed file: select the text it stands for now, then Re-attach.</source>
        <translation>바뀐 파일에서 텍스트를 다시 찾지 못했습니다: 지금 해당하는 텍스트를 선택한 다음 다시 연결을 누르세요.</translation>
    </message>
    <message>
        <source>Note: {note}</source>
        <translation>메모: {note}</translation>
    </message>
    <message>
        <source>Errors in this output ({0})</source>
        <translation>이 출력의 오류 ({0})</translation>
    </message>
    <message>
        <source>Errors in this output: none yet</source>
        <translation>이 출력의 오류: 아직 없음</translation>
    </message>
    <message>
        <source>ESA score</source>
        <translation>ESA 점수</translation>
    </message>
    <message>
        <source>Save the score  (D)</source>
        <translation>점수 저장  (D)</translation>
    </message>
    <message>
        <source>not saved yet (Enter or D saves; moving on saves too)</source>
        <translation>아직 저장 안 됨 (Enter나 D로 저장, 이동해도 저장됨)</translation>
    </message>
    <message>
        <source>saved {0:g}</source>
        <translation>저장됨 {0:g}</translation>
    </message>
    <message>
        <source>not scored yet</source>
        <translation>아직 점수 없음</translation>
    </message>
    <message>
        <source>{state} · the errors suggest {0:g}</source>
        <translation>{state} · 오류 기준 제안 점수 {0:g}</translation>
    </message>
    <message>
        <source>not rated yet</source>
        <translation>아직 평가되지 않음</translation>
    </message>
    <message>
        <source>MQM penalty of this output: {0}</source>
        <translation>이 출력의 MQM 감점: {0}</translation>
    </message>
    <message>
        <source>{name}: {0:,} of {1:,} outputs annotated · this one is done</source>
        <translation>{name}: 출력 {1:,}개 중 {0:,}개 주석 완료 · 이 출력은 완료</translation>
    </message>
    <message>
        <source>{name}: {0:,} of {1:,} outputs annotated</source>
        <translation>{name}: 출력 {1:,}개 중 {0:,}개 주석 완료</translation>
    </message>
    <message>
        <source>Select the text «{0}» stands for now, then Re-attach.</source>
        <translation>지금 «{0}»에 해당하는 텍스트를 선택한 다음 다시 연결을 누르세요.</translation>
    </message>
</context>
<context>
    <name>ViewControl</name>
    <message>
        <source>{lines} lines of text</source>
        <translation>텍스트 {lines}줄</translation>
    </message>
    <message>
        <source>Highlight {0}</source>
        <translation>{0} 강조 표시</translation>
    </message>
</context>
<context>
    <name>Warnings</name>
    <message>
        <source>; and {0} more</source>
        <translation>; 외 {0}개</translation>
    </message>
    <message>
        <source>Input warnings — {shown}.</source>
        <translation>입력 경고 — {shown}.</translation>
    </message>
</context>
<context>
    <name>WarningsBanner</name>
    <message>
        <source>Dismiss this warning</source>
        <translation>이 경고 닫기</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <source>&lt;h2&gt;No comparison open&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;열린 비교가 없습니다&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Open line-aligned files — an optional source, one or more references and one or more system outputs — to score every segment with BLEU and ROUGE and see what matched.</source>
        <translation>줄 단위로 정렬된 파일(원문(선택 사항), 참조 번역 하나 이상, 시스템 출력 하나 이상)을 열면 모든 세그먼트를 BLEU와 ROUGE로 채점하고 일치한 부분을 확인할 수 있습니다.</translation>
    </message>
    <message>
        <source>You can also drop the files, or a folder holding them, onto this window.</source>
        <translation>파일이나 파일이 든 폴더를 이 창에 끌어다 놓아도 됩니다.</translation>
    </message>
    <message>
        <source>Open comparison…</source>
        <translation>비교 열기…</translation>
    </message>
    <message>
        <source>Open the sample (German → English)</source>
        <translation>예제 열기 (독일어 → 영어)</translation>
    </message>
</context>
<context>
    <name>_RowList</name>
    <message>
        <source>Add {role}</source>
        <translation>{role} 추가</translation>
    </message>
</context>
<context>
    <name>about</name>
    <message>
        <source>not installed</source>
        <translation>설치되지 않음</translation>
    </message>
    <message>
        <source>BLEU and chrF equal sacreBLEU</source>
        <translation>BLEU와 chrF는 sacreBLEU와 일치</translation>
    </message>
    <message>
        <source>ROUGE equals rouge-score</source>
        <translation>ROUGE는 rouge-score와 일치</translation>
    </message>
    <message>
        <source>NLTK BLEU equals NLTK</source>
        <translation>NLTK BLEU는 NLTK와 일치</translation>
    </message>
</context>
<context>
    <name>actions</name>
    <message>
        <source>Category {0}</source>
        <translation>범주 {0}</translation>
    </message>
    <message>
        <source>&amp;ESA mode (severities and a 0–100 score)</source>
        <translation>ESA 모드(심각도와 0–100 점수)(&amp;E)</translation>
    </message>
    <message>
        <source>Confirm undecided errors of {where}</source>
        <translation>{where}의 미결정 오류 확정</translation>
    </message>
    <message>
        <source>Confirm every undecided error of {where}, as one step</source>
        <translation>{where}의 미결정 오류를 모두 한 번에 확정</translation>
    </message>
    <message>
        <source>Reject undecided errors of {where}</source>
        <translation>{where}의 미결정 오류 거부</translation>
    </message>
    <message>
        <source>Reject every undecided error of {where}, as one step</source>
        <translation>{where}의 미결정 오류를 모두 한 번에 거부</translation>
    </message>
    <message>
        <source>Re&amp;view pre-annotations</source>
        <translation>사전 주석 검토(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>실행 취소(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo {step}</source>
        <translation>실행 취소(&amp;U): {step}</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>다시 실행(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo {step}</source>
        <translation>다시 실행(&amp;R): {step}</translation>
    </message>
</context>
<context>
    <name>advice</name>
    <message>
        <source>keeps each space-delimited word (eojeol) whole, particles attached</source>
        <translation>띄어쓰기 단위(어절)를 조사가 붙은 채 통째로 유지합니다</translation>
    </message>
    <message>
        <source>splits only at spaces: each word (eojeol) is one token, particles attached</source>
        <translation>공백에서만 나눕니다. 조사가 붙은 어절 하나가 토큰 하나입니다</translation>
    </message>
    <message>
        <source>keeps each space-delimited word (eojeol) whole, like 13a</source>
        <translation>13a처럼 띄어쓰기 단위(어절)를 통째로 유지합니다</translation>
    </message>
    <message>
        <source>splits every Hangul syllable, so BLEU runs higher than with words</source>
        <translation>한글을 음절마다 나누므로 단어 단위보다 BLEU가 높게 나옵니다</translation>
    </message>
    <message>
        <source>BLEU&apos;s {tokenize} tokenizer {what}</source>
        <translation>BLEU의 {tokenize} 토크나이저는 {what}</translation>
    </message>
    <message>
        <source>rouge-score&apos;s tokenizer drops all Hangul</source>
        <translation>rouge-score 토크나이저는 한글을 모두 버립니다</translation>
    </message>
    <message>
        <source>the Unicode tokenizer keeps each word (eojeol) whole</source>
        <translation>Unicode 토크나이저는 어절을 통째로 유지합니다</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>한국어</translation>
    </message>
    <message>
        <source>Japanese</source>
        <translation>일본어</translation>
    </message>
    <message>
        <source>{name} ({language}) needs the packages {binding} and {dictionary}, which are not installed: pip install &apos;matchlight[{extra}]&apos;</source>
        <translation>{name}({language})에는 {binding} 및 {dictionary} 패키지가 필요하지만 설치되어 있지 않습니다: pip install &apos;matchlight[{extra}]&apos;</translation>
    </message>
    <message>
        <source>The references look Korean: {parts}.</source>
        <translation>참조 번역이 한국어로 보입니다. {parts}.</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source> sacreBLEU&apos;s ko-mecab, its tokenizer for Korean, splits off the particles: its BLEU lies between word and syllable BLEU.</source>
        <translation> sacreBLEU의 한국어 토크나이저 ko-mecab은 조사를 분리하므로, 그 BLEU는 어절 단위와 음절 단위 BLEU의 중간값이 됩니다.</translation>
    </message>
    <message>
        <source>{problem}.</source>
        <translation>{problem}.</translation>
    </message>
    <message>
        <source>The references look Chinese, but BLEU uses the {tokenize} tokenizer, which does not split Chinese into words: a whole clause counts as one token.</source>
        <translation>참조 번역이 중국어로 보이지만 BLEU가 {tokenize} 토크나이저를 쓰고 있습니다. 이 토크나이저는 중국어를 단어로 나누지 않아 절 전체가 토큰 하나로 계산됩니다.</translation>
    </message>
    <message>
        <source>The references look Japanese, but BLEU uses the {tokenize} tokenizer, which does not split Japanese into words.</source>
        <translation>참조 번역이 일본어로 보이지만 BLEU가 {tokenize} 토크나이저를 쓰고 있습니다. 이 토크나이저는 일본어를 단어로 나누지 않습니다.</translation>
    </message>
    <message>
        <source> sacreBLEU&apos;s ja-mecab, its tokenizer for Japanese, splits it into words;</source>
        <translation> sacreBLEU의 일본어 토크나이저 ja-mecab은 일본어를 단어로 나눕니다.</translation>
    </message>
    <message>
        <source>{dropped} of {total} references lose most of their letters under the rouge-score tokenizer (it keeps only a-z0-9): their ROUGE scores count only the Latin words and digits left.</source>
        <translation>참조 번역 {total}개 중 {dropped}개는 rouge-score 토크나이저(a-z0-9만 남김)에서 글자 대부분을 잃습니다. 이들의 ROUGE 점수는 남은 라틴 문자 단어와 숫자만 반영합니다.</translation>
    </message>
    <message>
        <source>{empty} of {total} references have no ROUGE tokens under the rouge-score tokenizer (it keeps only a-z0-9), so every system scores 0 ROUGE on them.</source>
        <translation>참조 번역 {total}개 중 {empty}개는 rouge-score 토크나이저(a-z0-9만 남김)에서 ROUGE 토큰이 하나도 없어, 모든 시스템의 ROUGE가 0점입니다.</translation>
    </message>
    <message>
        <source>{empty} of {total} references have no ROUGE tokens under the rouge-score tokenizer (it keeps only a-z0-9), so every system scores 0 ROUGE on them; {dropped} more lose most of their letters and score only on the Latin words and digits left.</source>
        <translation>참조 번역 {total}개 중 {empty}개는 rouge-score 토크나이저(a-z0-9만 남김)에서 ROUGE 토큰이 하나도 없어 모든 시스템의 ROUGE가 0점입니다. 또 {dropped}개는 글자 대부분을 잃어 남은 라틴 문자 단어와 숫자로만 채점됩니다.</translation>
    </message>
    <message>
        <source>No sentence separator is set, so ROUGE-Lsum equals ROUGE-L on every row.</source>
        <translation>문장 구분자가 설정되지 않아 모든 행에서 ROUGE-Lsum이 ROUGE-L과 같습니다.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>a newline</source>
        <translation>줄바꿈</translation>
    </message>
    <message>
        <source>ROUGE-Lsum equals ROUGE-L on {fallback} of {rows} rows: no sentence boundary ({separator}) was found in them.</source>
        <translation>{rows}행 중 {fallback}행에서 ROUGE-Lsum이 ROUGE-L과 같습니다. 이 행들에서 문장 경계({separator})를 찾지 못했습니다.</translation>
    </message>
    <message>
        <source>Use {0} tokenizer</source>
        <translation>{0} 토크나이저 사용</translation>
    </message>
    <message>
        <source>Use the Unicode tokenizer</source>
        <translation>Unicode 토크나이저 사용</translation>
    </message>
    <message>
        <source>Use the &lt;n&gt; separator</source>
        <translation>&lt;n&gt; 구분자 사용</translation>
    </message>
    <message>
        <source>Split at newlines</source>
        <translation>줄바꿈에서 나누기</translation>
    </message>
    <message>
        <source>Set a separator</source>
        <translation>구분자 설정</translation>
    </message>
</context>
<context>
    <name>agreement</name>
    <message>
        <source>The agreement could not be computed</source>
        <translation>일치도를 계산할 수 없습니다</translation>
    </message>
    <message>
        <source>The human judgements the metrics are compared with</source>
        <translation>지표와 비교할 사람 평가</translation>
    </message>
    <message>
        <source>The score columns to meta-evaluate</source>
        <translation>메타 평가할 점수 열</translation>
    </message>
    <message>
        <source>Quick</source>
        <translation>빠르게</translation>
    </message>
    <message>
        <source>Point values only: no intervals and no significance clusters (about a second)</source>
        <translation>점추정값만: 구간과 유의성 군집 없이 (1초 정도)</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop computing: the intervals and clusters (Quick is ticked: untick it to compute them), or the point values (until the rows or the choices change)</source>
        <translation>계산 중지: 구간과 군집(빠르게가 선택됨, 계산하려면 선택 해제), 또는 점추정값(행이나 선택이 바뀔 때까지)</translation>
    </message>
    <message>
        <source>Copy the table as text</source>
        <translation>표를 텍스트로 복사</translation>
    </message>
    <message>
        <source>System level</source>
        <translation>시스템 수준</translation>
    </message>
    <message>
        <source>Segment level</source>
        <translation>세그먼트 수준</translation>
    </message>
    <message>
        <source>System level: the metric&apos;s corpus figure against the human score of each system; segment level: every judged (system, segment) pair</source>
        <translation>시스템 수준: 각 시스템의 지표 코퍼스 수치와 사람 평가 점수를 비교, 세그먼트 수준: 평가된 모든 (시스템, 세그먼트) 쌍</translation>
    </message>
    <message>
        <source>Significance clusters, best first</source>
        <translation>유의성 군집 (최상위부터)</translation>
    </message>
    <message>
        <source>Resamples:</source>
        <translation>재표본 수:</translation>
    </message>
    <message>
        <source>Segment resamples for the 95% intervals (WMT: 1,000; 0: no intervals)</source>
        <translation>95% 구간을 위한 세그먼트 재표본 수 (WMT: 1,000, 0: 구간 없음)</translation>
    </message>
    <message>
        <source>Permutations:</source>
        <translation>순열 수:</translation>
    </message>
    <message>
        <source>Permutations of the test between two metrics (WMT: 1,000; 0: no clusters)</source>
        <translation>두 지표 간 검정의 순열 수 (WMT: 1,000, 0: 군집 없음)</translation>
    </message>
    <message>
        <source>Scatter</source>
        <translation>산점도</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>군집</translation>
    </message>
    <message>
        <source>Metrics ({0})</source>
        <translation>지표 ({0})</translation>
    </message>
    <message>
        <source>Open a comparison to see which metric agrees with human judgements.</source>
        <translation>비교를 열면 어느 지표가 사람 평가와 일치하는지 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Agreement with humans ranks systems: it needs two or more.</source>
        <translation>사람 평가 일치도는 시스템 순위를 비교하므로 시스템이 둘 이상 필요합니다.</translation>
    </message>
    <message>
        <source>Scoring… this view appears when every segment is scored.</source>
        <translation>채점 중… 모든 세그먼트의 채점이 끝나면 이 보기가 표시됩니다.</translation>
    </message>
    <message>
        <source>No human judgements yet. Load them with File ▸ Load human judgements… (scores per system such as WMT&apos;s DA table, scores per segment, or MQM error spans), or annotate segments (MQM or ESA) and compare with those.</source>
        <translation>아직 사람 평가가 없습니다. 파일 ▸ 사람 평가 불러오기…로 불러오거나(WMT DA 표 같은 시스템별 점수, 세그먼트별 점수, 또는 MQM 오류 구간), 세그먼트에 직접 주석(MQM 또는 ESA)을 달아 비교하세요.</translation>
    </message>
    <message>
        <source>Choose at least one metric (the Metrics button).</source>
        <translation>지표를 하나 이상 선택하세요 (지표 버튼).</translation>
    </message>
    <message>
        <source>No segments are selected.</source>
        <translation>선택된 세그먼트가 없습니다.</translation>
    </message>
    <message>
        <source>Cancelled. Change the rows, the human side or the metrics to compute again.</source>
        <translation>취소했습니다. 다시 계산하려면 행, 사람 평가 또는 지표를 바꾸세요.</translation>
    </message>
    <message>
        <source>{failure}: {0}</source>
        <translation>{failure}: {0}</translation>
    </message>
    <message>
        <source>{0} systems judged, {1:,} selected segments, {2:,} judged pairs.</source>
        <translation>평가된 시스템 {0}개, 선택된 세그먼트 {1:,}개, 평가된 쌍 {2:,}개.</translation>
    </message>
    <message>
        <source>{0} systems judged, {1:,} segments, {2:,} judged pairs.</source>
        <translation>평가된 시스템 {0}개, 세그먼트 {1:,}개, 평가된 쌍 {2:,}개.</translation>
    </message>
    <message>
        <source>{0} systems judged, {1:,} selected segments.</source>
        <translation>평가된 시스템 {0}개, 선택된 세그먼트 {1:,}개.</translation>
    </message>
    <message>
        <source>{0} systems judged, {1:,} segments.</source>
        <translation>평가된 시스템 {0}개, 세그먼트 {1:,}개.</translation>
    </message>
    <message>
        <source>Left out: {0}.</source>
        <translation>제외됨: {0}.</translation>
    </message>
    <message>
        <source>Computing the agreement of each metric with the humans…</source>
        <translation>각 지표와 사람 평가의 일치도를 계산하는 중…</translation>
    </message>
    <message>
        <source>Against {human} (higher is better), as mt-metrics-eval computes it for the WMT metrics task; both sides turned higher-is-better.</source>
        <translation>{human}(높을수록 좋음)과 비교. WMT 지표 과제에서 mt-metrics-eval이 계산하는 방식이며, 양쪽 모두 높을수록 좋은 방향으로 맞췄습니다.</translation>
    </message>
    <message>
        <source>Against {human} (lower is better), as mt-metrics-eval computes it for the WMT metrics task; both sides turned higher-is-better.</source>
        <translation>{human}(낮을수록 좋음)과 비교. WMT 지표 과제에서 mt-metrics-eval이 계산하는 방식이며, 양쪽 모두 높을수록 좋은 방향으로 맞췄습니다.</translation>
    </message>
    <message>
        <source>[low, high]: {confidence:.0%} interval, {samples:,} segment resamples.</source>
        <translation>[하한, 상한]: {confidence:.0%} 구간, 세그먼트 재표본 {samples:,}회.</translation>
    </message>
    <message>
        <source>Tooltips give the {confidence:.0%} interval, {samples:,} segment resamples.</source>
        <translation>도움말에 {confidence:.0%} 구간 표시, 세그먼트 재표본 {samples:,}회.</translation>
    </message>
    <message>
        <source>(n): significance cluster, 1 = best ({0:,} permutations, p ≤ {p}).</source>
        <translation>(n): 유의성 군집, 1 = 최상 (순열 {0:,}회, p ≤ {p}).</translation>
    </message>
    <message>
        <source>Bold: best.</source>
        <translation>굵게: 최상.</translation>
    </message>
    <message>
        <source>Computing intervals and clusters…</source>
        <translation>구간과 군집을 계산하는 중…</translation>
    </message>
    <message>
        <source>Quick: point values only.</source>
        <translation>빠르게: 점추정값만.</translation>
    </message>
    <message>
        <source>Quick: no permutation tests, no clusters.</source>
        <translation>빠르게: 순열 검정과 군집 없음.</translation>
    </message>
    <message>
        <source>No permutation tests (permutations 0, or one metric).</source>
        <translation>순열 검정 없음 (순열 수 0, 또는 지표 하나).</translation>
    </message>
    <message>
        <source>Pearson correlation</source>
        <translation>Pearson 상관계수</translation>
    </message>
    <message>
        <source>Spearman rank correlation</source>
        <translation>Spearman 순위 상관계수</translation>
    </message>
    <message>
        <source>Kendall tau-b</source>
        <translation>Kendall tau-b</translation>
    </message>
    <message>
        <source>pairwise accuracy (Kocmi et al. 2021): the share of system pairs the metric orders as the humans do</source>
        <translation>쌍별 정확도(Kocmi et al. 2021): 지표가 사람과 같은 순서로 매긴 시스템 쌍의 비율</translation>
    </message>
    <message>
        <source>soft pairwise accuracy (WMT24): pairwise accuracy weighted by how sure both sides are (needs every pair judged)</source>
        <translation>소프트 쌍별 정확도(WMT24): 양쪽의 확신 정도로 가중한 쌍별 정확도 (모든 쌍이 평가되어야 함)</translation>
    </message>
    <message>
        <source>Kendall tau-b over all judged (system, segment) pairs</source>
        <translation>평가된 모든 (시스템, 세그먼트) 쌍에 대한 Kendall tau-b</translation>
    </message>
    <message>
        <source>acc23 (Deutsch et al. 2023): pairwise accuracy with ties, with the metric&apos;s optimised tie threshold, averaged over segments</source>
        <translation>acc23(Deutsch et al. 2023): 지표별로 최적화한 동점 임계값을 쓰는 동점 포함 쌍별 정확도의 세그먼트 평균</translation>
    </message>
    <message>
        <source>{0} (per segment)</source>
        <translation>{0} (세그먼트별)</translation>
    </message>
    <message>
        <source>{0} (per system)</source>
        <translation>{0} (시스템별)</translation>
    </message>
    <message>
        <source>{label} ({key}): another column has that name</source>
        <translation>{label} ({key}): 같은 이름의 열이 이미 있음</translation>
    </message>
    <message>
        <source>{0}: no value where humans judged</source>
        <translation>{0}: 사람이 평가한 곳에 값이 없음</translation>
    </message>
    <message>
        <source>no metric has a value wherever the humans judged</source>
        <translation>사람이 평가한 모든 곳에 값이 있는 지표가 없습니다</translation>
    </message>
    <message>
        <source>System-level {meaning} of {name} against {human}.</source>
        <translation>{name}과(와) {human}의 시스템 수준 {meaning}.</translation>
    </message>
    <message>
        <source>Segment-level {meaning} of {name} against {human}.</source>
        <translation>{name}과(와) {human}의 세그먼트 수준 {meaning}.</translation>
    </message>
    <message>
        <source>SPA needs every (system, segment) pair of the rows judged.</source>
        <translation>SPA는 행의 모든 (시스템, 세그먼트) 쌍이 평가되어야 합니다.</translation>
    </message>
    <message>
        <source>Not computable from these judgements.</source>
        <translation>이 평가로는 계산할 수 없습니다.</translation>
    </message>
    <message>
        <source>Value: {0}</source>
        <translation>값: {0}</translation>
    </message>
    <message>
        <source>{confidence:.0%} interval over {samples:,} segment resamples: {low} to {high}</source>
        <translation>세그먼트 재표본 {samples:,}회에 대한 {confidence:.0%} 구간: {low}~{high}</translation>
    </message>
    <message>
        <source>Significance cluster {0} of {1} (1 = best; permutation tests, {permutations:,} permutations, p ≤ {p})</source>
        <translation>유의성 군집 {0}/{1} (1 = 최상, 순열 검정, 순열 {permutations:,}회, p ≤ {p})</translation>
    </message>
    <message>
        <source>The best value of this statistic.</source>
        <translation>이 통계량의 최상값입니다.</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>지표</translation>
    </message>
    <message>
        <source>System level: {0}</source>
        <translation>시스템 수준: {0}</translation>
    </message>
    <message>
        <source>Segment level: {0}</source>
        <translation>세그먼트 수준: {0}</translation>
    </message>
    <message>
        <source>The metric on the horizontal axis</source>
        <translation>가로축의 지표</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>지표:</translation>
    </message>
    <message>
        <source>{0:,} selected segments</source>
        <translation>선택된 세그먼트 {0:,}개</translation>
    </message>
    <message>
        <source>{0:,} segments</source>
        <translation>세그먼트 {0:,}개</translation>
    </message>
    <message>
        <source>corpus {label} ({rows})</source>
        <translation>코퍼스 {label} ({rows})</translation>
    </message>
    <message>
        <source>mean {0}</source>
        <translation>평균 {0}</translation>
    </message>
    <message>
        <source>{name} against {human}</source>
        <translation>{name} 대 {human}</translation>
    </message>
</context>
<context>
    <name>agreementdialog</name>
    <message>
        <source>Annotator agreement</source>
        <translation>주석자 간 일치도</translation>
    </message>
    <message>
        <source>Compared with {0}; confirmed errors only. Position: the same output, side, start and end. + Severity, + Category: the same place and that label too. All (exact): place, severity and category (a Major error against a Critical one on the same words is not a match). MQM-weighted: each pair at the same place counts with the smaller of its two MQM weights, so a disagreement on a major error weighs more than one on a minor punctuation mark. Overlap: characters covered by both (omissions count in matching only); P and R read this session as the candidate. Correlations: the two MQM scores of the outputs both annotators rated.</source>
        <translation>{0}과(와) 비교, 확정된 오류만. 위치: 같은 출력, 같은 쪽, 같은 시작과 끝. + 심각도, + 범주: 같은 위치에 그 레이블까지 같음. 전체(정확히): 위치, 심각도, 범주가 모두 같음(같은 단어에 대한 Major 오류와 Critical 오류는 일치가 아님). MQM 가중: 같은 위치의 각 쌍을 두 MQM 가중치 중 작은 값으로 세므로, 주요 오류에 대한 불일치가 사소한 구두점 오류에 대한 불일치보다 무겁습니다. 겹침: 양쪽이 모두 덮은 문자(누락은 일치에서만 셈). P와 R은 이 세션을 후보로 봅니다. 상관: 두 주석자가 모두 평가한 출력의 MQM 점수 두 개.</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 이전</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>다음 ▶</translation>
    </message>
    <message>
        <source>{0} disagreement: click one (or press Next) to see its segment, with the error selected in this session&apos;s output.</source>
        <translation>불일치 {0}건: 하나를 클릭하면(또는 다음을 누르면) 해당 세그먼트가 표시되고, 이 세션의 출력에서 그 오류가 선택됩니다.</translation>
    </message>
    <message>
        <source>{0} disagreements: click one (or press Next) to see its segment, with the error selected in this session&apos;s output.</source>
        <translation>불일치 {0}건: 하나를 클릭하면(또는 다음을 누르면) 해당 세그먼트가 표시되고, 이 세션의 출력에서 그 오류가 선택됩니다.</translation>
    </message>
    <message>
        <source>No disagreements: both annotators marked the same errors.</source>
        <translation>불일치 없음: 두 주석자가 같은 오류를 표시했습니다.</translation>
    </message>
    <message>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>Cannot open the session</source>
        <translation>세션을 열 수 없습니다</translation>
    </message>
    <message>
        <source>A session file brings its own files: do not combine it with --sample, --src, --ref or --hyp.</source>
        <translation>세션 파일에는 자체 파일이 들어 있으므로 --sample, --src, --ref, --hyp와 함께 쓰지 마세요.</translation>
    </message>
    <message>
        <source>Matchlight ran into an unexpected problem and could not finish what it was doing:

{detail} ({0})

Your files were not changed. The technical details were written to the error output (stderr); please include them when you report this.</source>
        <translation>Matchlight에 예기치 않은 문제가 발생해 작업을 마치지 못했습니다:

{detail} ({0})

파일은 변경되지 않았습니다. 기술적인 세부 정보는 오류 출력(stderr)에 기록되었으니 문제를 보고할 때 함께 보내 주세요.</translation>
    </message>
    <message>
        <source>Unexpected error — Matchlight</source>
        <translation>예기치 않은 오류 — Matchlight</translation>
    </message>
    <message>
        <source>Cannot open the comparison</source>
        <translation>비교를 열 수 없습니다</translation>
    </message>
</context>
<context>
    <name>base</name>
    <message>
        <source> (lower is better)</source>
        <translation> (낮을수록 좋음)</translation>
    </message>
</context>
<context>
    <name>breakdown</name>
    <message>
        <source>Copy the breakdown</source>
        <translation>세부 내역 복사</translation>
    </message>
</context>
<context>
    <name>buckets</name>
    <message>
        <source>the reference</source>
        <translation>참조 번역</translation>
    </message>
    <message>
        <source>the training corpus</source>
        <translation>학습 코퍼스</translation>
    </message>
    <message>
        <source>word frequency in {where}</source>
        <translation>{where}의 단어 빈도</translation>
    </message>
    <message>
        <source>word F-measure</source>
        <translation>단어 F-점수</translation>
    </message>
    <message>
        <source>counts are reference words; a bucket&apos;s segments are those whose reference has such a word</source>
        <translation>빈도는 참조 번역의 단어 수이며, 구간의 세그먼트는 참조 번역에 그런 단어가 있는 세그먼트입니다</translation>
    </message>
    <message>
        <source>reference length (tokens)</source>
        <translation>참조 번역 길이 (토큰)</translation>
    </message>
    <message>
        <source>output length / reference length</source>
        <translation>출력 길이 / 참조 번역 길이</translation>
    </message>
    <message>
        <source>mean sentence {0}</source>
        <translation>문장 {0} 평균</translation>
    </message>
    <message>
        <source>corpus {0}</source>
        <translation>코퍼스 {0}</translation>
    </message>
    <message>
        <source>mean {0}</source>
        <translation>평균 {0}</translation>
    </message>
</context>
<context>
    <name>controller</name>
    <message>
        <source>The scoring settings are invalid: {exc}</source>
        <translation>채점 설정이 잘못되었습니다: {exc}</translation>
    </message>
    <message>
        <source>Scoring ran out of memory. Try fewer systems or a smaller file.</source>
        <translation>채점 중 메모리가 부족합니다. 시스템 수를 줄이거나 더 작은 파일을 사용하세요.</translation>
    </message>
    <message>
        <source>Scoring failed: {detail} ({0}).</source>
        <translation>채점에 실패했습니다: {detail} ({0}).</translation>
    </message>
</context>
<context>
    <name>dialogs</name>
    <message>
        <source>Error typology</source>
        <translation>오류 유형 체계</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>범주</translation>
    </message>
    <message>
        <source>Needs a note</source>
        <translation>메모 필요</translation>
    </message>
    <message>
        <source>Add category</source>
        <translation>범주 추가</translation>
    </message>
    <message>
        <source>Add sub-category</source>
        <translation>하위 범주 추가</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <source>MQM default</source>
        <translation>MQM 기본값</translation>
    </message>
    <message>
        <source>Keys 1–9 pick the first nine top-level categories, in this order.</source>
        <translation>1–9 키는 이 순서대로 처음 아홉 개의 최상위 범주를 선택합니다.</translation>
    </message>
    <message>
        <source>MQM weights</source>
        <translation>MQM 가중치</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>가중치</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>Category (and below)</source>
        <translation>범주(하위 포함)</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>규칙 추가</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>위로</translation>
    </message>
    <message>
        <source>Freitag et al. (2021)</source>
        <translation>Freitag 외 (2021)</translation>
    </message>
    <message>
        <source>Minor 1, Major 5, minor Punctuation 0.1, Non-translation 25, Critical 25</source>
        <translation>Minor 1, Major 5, Minor Punctuation 0.1, Non-translation 25, Critical 25</translation>
    </message>
    <message>
        <source>Rules are tried top to bottom; the first that matches wins.</source>
        <translation>규칙은 위에서 아래로 적용되며, 처음 일치하는 규칙이 쓰입니다.</translation>
    </message>
    <message>
        <source>Recover unsaved sessions</source>
        <translation>저장되지 않은 세션 복구</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>마지막 변경</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>문제</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>열기</translation>
    </message>
    <message>
        <source>Open a read-only copy</source>
        <translation>읽기 전용 사본 열기</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>버리기</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>나중에</translation>
    </message>
    <message>
        <source>Matchlight keeps annotation work from the first edit on. These sessions were not saved under a name when Matchlight last stopped. Open one to continue (then File ▸ Save session as… to name it), or discard it.</source>
        <translation>Matchlight는 첫 편집부터 주석 작업을 보관합니다. 아래 세션은 Matchlight가 마지막으로 종료될 때 이름을 붙여 저장되지 않았습니다. 하나를 열어 이어서 작업하거나(이름을 붙이려면 파일 ▸ 다른 이름으로 세션 저장…), 버리세요.</translation>
    </message>
    <message>
        <source>Import pre-annotations</source>
        <translation>사전 주석 가져오기</translation>
    </message>
    <message>
        <source>annotation file</source>
        <translation>주석 파일</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>For xCOMET records without a &apos;system&apos; key</source>
        <translation>&apos;system&apos; 키가 없는 xCOMET 레코드용</translation>
    </message>
    <message>
        <source>the line number (1, 2, 3, …)</source>
        <translation>줄 번호 (1, 2, 3, …)</translation>
    </message>
    <message>
        <source>an id in a segment-id file (segid.txt)</source>
        <translation>세그먼트 ID 파일(segid.txt)의 ID</translation>
    </message>
    <message>
        <source>an id in the label column {0!r}</source>
        <translation>레이블 열 {0!r}의 ID</translation>
    </message>
    <message>
        <source>WMT MQM files number segments by their seg_id; when those are not line numbers, a file or a label column with one id per line says which line each id is</source>
        <translation>WMT MQM 파일은 세그먼트를 seg_id로 번호 매깁니다. seg_id가 줄 번호가 아니면, 한 줄에 ID 하나씩 담은 파일이나 레이블 열로 각 ID가 몇 번째 줄인지 지정합니다</translation>
    </message>
    <message>
        <source>segment-id file: line i holds segment i&apos;s id</source>
        <translation>세그먼트 ID 파일: i번째 줄에 세그먼트 i의 ID</translation>
    </message>
    <message>
        <source>seg_id is (WMT MQM TSV):</source>
        <translation>seg_id의 의미 (WMT MQM TSV):</translation>
    </message>
    <message>
        <source>Errors arrive undecided: confirm (Enter) or reject (Backspace)</source>
        <translation>오류를 미결정 상태로 가져오기: 확정(Enter) 또는 거부(Backspace)</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>형식:</translation>
    </message>
    <message>
        <source>System (xCOMET files without system names):</source>
        <translation>시스템 (시스템 이름이 없는 xCOMET 파일):</translation>
    </message>
    <message>
        <source>Choose the annotation file.</source>
        <translation>주석 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>Choose the segment-id file (or number segments by line).</source>
        <translation>세그먼트 ID 파일을 선택하세요(또는 줄 번호로 세그먼트를 지정하세요).</translation>
    </message>
</context>
<context>
    <name>exports</name>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 파일 (*.csv)</translation>
    </message>
</context>
<context>
    <name>filterbar</name>
    <message>
        <source>Invalid regular expression: {exc}</source>
        <translation>잘못된 정규식: {exc}</translation>
    </message>
    <message>
        <source>Rows where some system&apos;s output is the source, or nearly (numbers, URLs, names and rows whose reference keeps the source do not count)</source>
        <translation>어떤 시스템의 출력이 원문과 같거나 거의 같은 행 (숫자, URL, 이름, 참조 번역이 원문을 그대로 둔 행은 제외)</translation>
    </message>
    <message>
        <source>Rows where some system&apos;s output is in another language than the references ({language}); lines too short to tell are never counted</source>
        <translation>어떤 시스템의 출력이 참조 번역({language})과 다른 언어인 행. 판단하기에 너무 짧은 줄은 세지 않습니다</translation>
    </message>
</context>
<context>
    <name>fonts</name>
    <message>
        <source>Korean (Hangul)</source>
        <translation>한국어(한글)</translation>
    </message>
    <message>
        <source>Japanese (kana)</source>
        <translation>일본어(가나)</translation>
    </message>
    <message>
        <source>Chinese characters (Han)</source>
        <translation>한자</translation>
    </message>
    <message>
        <source>Thai</source>
        <translation>태국 문자</translation>
    </message>
    <message>
        <source>Arabic</source>
        <translation>아랍 문자</translation>
    </message>
    <message>
        <source>Hebrew</source>
        <translation>히브리 문자</translation>
    </message>
    <message>
        <source>Devanagari</source>
        <translation>데바나가리 문자</translation>
    </message>
    <message>
        <source>Bengali</source>
        <translation>벵골 문자</translation>
    </message>
    <message>
        <source>Tamil</source>
        <translation>타밀 문자</translation>
    </message>
    <message>
        <source>Georgian</source>
        <translation>조지아 문자</translation>
    </message>
    <message>
        <source>Armenian</source>
        <translation>아르메니아 문자</translation>
    </message>
    <message>
        <source>Khmer</source>
        <translation>크메르 문자</translation>
    </message>
    <message>
        <source>Ethiopic</source>
        <translation>에티오피아 문자</translation>
    </message>
    <message>
        <source>Greek</source>
        <translation>그리스 문자</translation>
    </message>
    <message>
        <source>Cyrillic</source>
        <translation>키릴 문자</translation>
    </message>
    <message>
        <source>No installed font draws {scripts} (such as {sample}): it shows as boxes. Install one (Debian/Ubuntu: sudo apt install {packages}) and restart Matchlight; the scores are not affected.</source>
        <translation>{scripts}({sample} 등)을(를) 표시할 글꼴이 설치되어 있지 않아 네모로 보입니다. 글꼴을 설치하고(Debian/Ubuntu: sudo apt install {packages}) Matchlight를 다시 시작하세요. 점수에는 영향이 없습니다.</translation>
    </message>
</context>
<context>
    <name>humanimport</name>
    <message>
        <source>Scores per system (one row per system, e.g. WMT&apos;s DA table)</source>
        <translation>시스템별 점수 (시스템마다 한 행, 예: WMT의 DA 표)</translation>
    </message>
    <message>
        <source>Scores per segment: one row per system and segment</source>
        <translation>세그먼트별 점수: 시스템과 세그먼트마다 한 행</translation>
    </message>
    <message>
        <source>Scores per segment: one column per system</source>
        <translation>세그먼트별 점수: 시스템마다 한 열</translation>
    </message>
    <message>
        <source>MQM from error spans (a WMT MQM TSV)</source>
        <translation>오류 구간에서 얻은 MQM (WMT MQM TSV)</translation>
    </message>
    <message>
        <source>{0}: write the file&apos;s name, &apos;=&apos;, then the comparison&apos;s</source>
        <translation>{0}: 파일에서의 이름, &apos;=&apos;, 비교에서의 이름 순으로 쓰세요</translation>
    </message>
    <message>
        <source>not kept in the session file: {0}</source>
        <translation>세션 파일에 보관되지 않음: {0}</translation>
    </message>
    <message>
        <source>Load human judgements</source>
        <translation>사람 평가 불러오기</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>The column of the scores: a header name, or a JSON key</source>
        <translation>점수가 있는 열: 헤더 이름 또는 JSON 키</translation>
    </message>
    <message>
        <source>The column naming the system of each row</source>
        <translation>각 행의 시스템 이름이 있는 열</translation>
    </message>
    <message>
        <source>optional; 1-based segment numbers (else in order)</source>
        <translation>선택 사항, 1부터 시작하는 세그먼트 번호 (없으면 순서대로)</translation>
    </message>
    <message>
        <source>optional; the TSV&apos;s seg_id of each line (segid.txt)</source>
        <translation>선택 사항, 줄마다 TSV의 seg_id (segid.txt)</translation>
    </message>
    <message>
        <source>e.g. ref=ref-A (the file&apos;s name = the comparison&apos;s)</source>
        <translation>예: ref=ref-A (파일에서의 이름 = 비교에서의 이름)</translation>
    </message>
    <message>
        <source>default: the column&apos;s name</source>
        <translation>기본값: 열 이름</translation>
    </message>
    <message>
        <source>As the name says (MQM, error: lower)</source>
        <translation>이름에 따라 (MQM, error: 낮을수록 좋음)</translation>
    </message>
    <message>
        <source>Higher is better</source>
        <translation>높을수록 좋음</translation>
    </message>
    <message>
        <source>Lower is better</source>
        <translation>낮을수록 좋음</translation>
    </message>
    <message>
        <source>What:</source>
        <translation>종류:</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>파일:</translation>
    </message>
    <message>
        <source>Score column:</source>
        <translation>점수 열:</translation>
    </message>
    <message>
        <source>System column:</source>
        <translation>시스템 열:</translation>
    </message>
    <message>
        <source>Segment column:</source>
        <translation>세그먼트 열:</translation>
    </message>
    <message>
        <source>Segment ids:</source>
        <translation>세그먼트 ID:</translation>
    </message>
    <message>
        <source>Systems renamed:</source>
        <translation>시스템 이름 바꾸기:</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>이름:</translation>
    </message>
    <message>
        <source>Better:</source>
        <translation>좋은 방향:</translation>
    </message>
    <message>
        <source>default: MQM</source>
        <translation>기본값: MQM</translation>
    </message>
    <message>
        <source>default: the file&apos;s name</source>
        <translation>기본값: 파일 이름</translation>
    </message>
    <message>
        <source>default: the score column&apos;s name</source>
        <translation>기본값: 점수 열 이름</translation>
    </message>
    <message>
        <source>One row per system, named as in the comparison ({systems}); systems the file has and the comparison has not are ignored. Kept while the comparison is open (not in a session file).</source>
        <translation>시스템마다 한 행, 비교에서와 같은 이름({systems}). 파일에만 있고 비교에는 없는 시스템은 무시합니다. 비교가 열려 있는 동안 유지됩니다 (세션 파일에는 저장되지 않음).</translation>
    </message>
    <message>
        <source>One row per system and segment ({0:,} segments each, in order unless a segment column numbers them); empty, NA or - where a pair was not judged. It becomes a column of the comparison, kept in the session file.</source>
        <translation>시스템과 세그먼트마다 한 행 (시스템마다 세그먼트 {0:,}개, 세그먼트 열이 번호를 매기지 않으면 순서대로). 평가되지 않은 쌍은 빈칸, NA 또는 -. 비교의 열이 되며 세션 파일에 보관됩니다.</translation>
    </message>
    <message>
        <source>One row per segment ({0:,}), one column per system, headed with its name; empty, NA or - where a pair was not judged. It becomes a column of the comparison, kept in the session file.</source>
        <translation>세그먼트마다 한 행({0:,}개), 시스템마다 한 열(헤더는 시스템 이름). 평가되지 않은 쌍은 빈칸, NA 또는 -. 비교의 열이 되며 세션 파일에 보관됩니다.</translation>
    </message>
    <message>
        <source>A WMT MQM TSV (system, doc, doc_id, seg_id, rater, source, target, category, severity): each rated (system, segment) gets its MQM penalty (lower is better). seg_id is the line number unless a segment-id file maps it. It becomes a column of the comparison, kept in the session file.</source>
        <translation>WMT MQM TSV (system, doc, doc_id, seg_id, rater, source, target, category, severity): 평가된 (시스템, 세그먼트)마다 MQM 감점을 구합니다(낮을수록 좋음). 세그먼트 ID 파일로 대응시키지 않으면 seg_id는 줄 번호입니다. 비교의 열이 되며 세션 파일에 보관됩니다.</translation>
    </message>
    <message>
        <source>Human judgements</source>
        <translation>사람 평가</translation>
    </message>
    <message>
        <source>Segment ids</source>
        <translation>세그먼트 ID</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>파일을 선택하세요.</translation>
    </message>
    <message>
        <source>Systems renamed: {0}</source>
        <translation>시스템 이름 바꾸기: {0}</translation>
    </message>
    <message>
        <source>Name the score column.</source>
        <translation>점수 열을 지정하세요.</translation>
    </message>
</context>
<context>
    <name>imports</name>
    <message>
        <source>no bounds</source>
        <translation>범위 제한 없음</translation>
    </message>
    <message>
        <source>from {low}</source>
        <translation>{low} 이상</translation>
    </message>
    <message>
        <source>up to {high}</source>
        <translation>{high} 이하</translation>
    </message>
    <message>
        <source>{low} to {high}</source>
        <translation>{low}~{high}</translation>
    </message>
    <message>
        <source>lower is better</source>
        <translation>낮을수록 좋음</translation>
    </message>
    <message>
        <source>higher is better</source>
        <translation>높을수록 좋음</translation>
    </message>
    <message>
        <source>1 decimal</source>
        <translation>소수점 1자리</translation>
    </message>
    <message>
        <source>{0} decimals</source>
        <translation>소수점 {0}자리</translation>
    </message>
    <message>
        <source>{better}, {span}, {places}</source>
        <translation>{better}, {span}, {places}</translation>
    </message>
    <message>
        <source>Filled in from the values once the files are read.</source>
        <translation>파일을 읽으면 값에 맞춰 채워집니다.</translation>
    </message>
    <message>
        <source>Load segment scores</source>
        <translation>세그먼트 점수 불러오기</translation>
    </message>
    <message>
        <source>e.g. COMET-22</source>
        <translation>예: COMET-22</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>파일 추가…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <source>from the file name</source>
        <translation>파일 이름으로 판단</translation>
    </message>
    <message>
        <source>header name or 1-based number; JSON key</source>
        <translation>헤더 이름 또는 1부터 시작하는 번호, JSON 키</translation>
    </message>
    <message>
        <source>only for one file holding every system</source>
        <translation>모든 시스템이 한 파일에 있을 때만</translation>
    </message>
    <message>
        <source>optional; 1-based segment numbers</source>
        <translation>선택 사항, 1부터 시작하는 세그먼트 번호</translation>
    </message>
    <message>
        <source>Score name:</source>
        <translation>점수 이름:</translation>
    </message>
    <message>
        <source>Files:</source>
        <translation>파일:</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>형식:</translation>
    </message>
    <message>
        <source>Score column:</source>
        <translation>점수 열:</translation>
    </message>
    <message>
        <source>System column:</source>
        <translation>시스템 열:</translation>
    </message>
    <message>
        <source>Segment column:</source>
        <translation>세그먼트 열:</translation>
    </message>
    <message>
        <source>Higher is better</source>
        <translation>높을수록 좋음</translation>
    </message>
    <message>
        <source>Lower is better</source>
        <translation>낮을수록 좋음</translation>
    </message>
    <message>
        <source>Lower is better for an error rate or a penalty (TER, MQM)</source>
        <translation>오류율이나 감점(TER, MQM)은 낮을수록 좋습니다</translation>
    </message>
    <message>
        <source>The lowest value the score can take; empty: no bound</source>
        <translation>점수가 가질 수 있는 최솟값 (비우면 제한 없음)</translation>
    </message>
    <message>
        <source>The highest value the score can take; empty: no bound</source>
        <translation>점수가 가질 수 있는 최댓값 (비우면 제한 없음)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>Decimals the table shows (corpus figures get one more)</source>
        <translation>표에 표시할 소수 자릿수 (코퍼스 수치는 한 자리 더)</translation>
    </message>
    <message>
        <source>from</source>
        <translation>최솟값</translation>
    </message>
    <message>
        <source>to</source>
        <translation>최댓값</translation>
    </message>
    <message>
        <source>decimals</source>
        <translation>소수 자릿수</translation>
    </message>
    <message>
        <source>Scale:</source>
        <translation>척도:</translation>
    </message>
    <message>
        <source>One value per segment ({0:,}) for each system ({systems}): a file per system (named after it, as sys.NAME.tsv), or one file with a system column, or COMET&apos;s output.</source>
        <translation>시스템({systems})마다 세그먼트당 값 하나({0:,}개): 시스템마다 파일 하나(sys.NAME.tsv처럼 시스템 이름을 딴 파일), 시스템 열이 있는 파일 하나, 또는 COMET의 출력.</translation>
    </message>
    <message>
        <source>The lowest value, {0}, is not a number.</source>
        <translation>최솟값 {0}은(는) 숫자가 아닙니다.</translation>
    </message>
    <message>
        <source>The lowest value must be a finite number, not {0}.</source>
        <translation>최솟값은 유한한 숫자여야 합니다 ({0}은(는) 안 됨).</translation>
    </message>
    <message>
        <source>The highest value, {0}, is not a number.</source>
        <translation>최댓값 {0}은(는) 숫자가 아닙니다.</translation>
    </message>
    <message>
        <source>The highest value must be a finite number, not {0}.</source>
        <translation>최댓값은 유한한 숫자여야 합니다 ({0}은(는) 안 됨).</translation>
    </message>
    <message>
        <source>The lowest value ({low}) is above the highest ({high}).</source>
        <translation>최솟값({low})이 최댓값({high})보다 큽니다.</translation>
    </message>
    <message>
        <source>The values run from {low} to {high}.</source>
        <translation>값의 범위는 {low}~{high}입니다.</translation>
    </message>
    <message>
        <source>The values run from {low} to {high}; the scale above is what they suggest.</source>
        <translation>값의 범위는 {low}~{high}이며, 위의 척도는 이 값에 맞춘 것입니다.</translation>
    </message>
    <message>
        <source>Segment score files</source>
        <translation>세그먼트 점수 파일</translation>
    </message>
    <message>
        <source>Name the score (e.g. COMET-22): the table and the charts show it.</source>
        <translation>점수 이름을 입력하세요 (예: COMET-22). 표와 차트에 표시됩니다.</translation>
    </message>
    <message>
        <source>Add at least one file.</source>
        <translation>파일을 하나 이상 추가하세요.</translation>
    </message>
    <message>
        <source>Load label column</source>
        <translation>레이블 열 불러오기</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>TSV/CSV: header name or 1-based number; JSONL: key</source>
        <translation>TSV/CSV: 헤더 이름 또는 1부터 시작하는 번호, JSONL: 키</translation>
    </message>
    <message>
        <source>default: the file&apos;s name</source>
        <translation>기본값: 파일 이름</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>파일:</translation>
    </message>
    <message>
        <source>Column:</source>
        <translation>열:</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>이름:</translation>
    </message>
    <message>
        <source>One label per segment ({0:,} lines), in the order of the segments. The Buckets tab then compares the systems per label.</source>
        <translation>세그먼트마다 레이블 하나(줄 {0:,}개)를 세그먼트 순서대로 씁니다. 그러면 구간별 탭에서 레이블별로 시스템을 비교합니다.</translation>
    </message>
    <message>
        <source>Label column</source>
        <translation>레이블 열</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>파일을 선택하세요.</translation>
    </message>
</context>
<context>
    <name>jobs</name>
    <message>
        <source>Out of memory: try fewer rows or fewer resamples.</source>
        <translation>메모리가 부족합니다. 행이나 재표본 수를 줄여 보세요.</translation>
    </message>
</context>
<context>
    <name>keys</name>
    <message>
        <source>Select in the &amp;output</source>
        <translation>출력에서 선택(&amp;O)</translation>
    </message>
    <message>
        <source>Put the text cursor in the current system&apos;s output (select with Shift+arrows)</source>
        <translation>현재 시스템의 출력에 텍스트 커서를 놓습니다 (Shift+화살표로 선택)</translation>
    </message>
    <message>
        <source>Select in the s&amp;ource</source>
        <translation>원문에서 선택(&amp;O)</translation>
    </message>
    <message>
        <source>Put the text cursor in the source, to mark a source error or an omission (the source words the output left out); in the annotation view</source>
        <translation>원문 오류나 누락(출력이 빠뜨린 원문 단어)을 표시하도록 원문에 텍스트 커서를 놓습니다. 주석 보기에서</translation>
    </message>
    <message>
        <source>&amp;Minor</source>
        <translation>경미(&amp;M)</translation>
    </message>
    <message>
        <source>Severity minor (m) for the drafted error or the error under the cursor</source>
        <translation>작성 중인 오류나 커서 위치의 오류를 심각도 경미(m)로</translation>
    </message>
    <message>
        <source>M&amp;ajor</source>
        <translation>중대(&amp;A)</translation>
    </message>
    <message>
        <source>Severity major (Shift+M, capital M) for the drafted error or the error under the cursor</source>
        <translation>작성 중인 오류나 커서 위치의 오류를 심각도 중대(Shift+M, 대문자 M)로</translation>
    </message>
    <message>
        <source>&amp;Critical</source>
        <translation>치명(&amp;C)</translation>
    </message>
    <message>
        <source>Severity critical for the drafted error or the error under the cursor</source>
        <translation>작성 중인 오류나 커서 위치의 오류를 심각도 치명으로</translation>
    </message>
    <message>
        <source>&amp;Add or confirm error</source>
        <translation>오류 추가 또는 확정(&amp;A)</translation>
    </message>
    <message>
        <source>Add the drafted error; confirm the pre-annotated error under the cursor</source>
        <translation>작성 중인 오류를 추가하거나, 커서 위치의 사전 주석 오류를 확정합니다</translation>
    </message>
    <message>
        <source>&amp;Remove error</source>
        <translation>오류 제거(&amp;R)</translation>
    </message>
    <message>
        <source>Delete the error under the cursor (a pre-annotation is rejected)</source>
        <translation>커서 위치의 오류를 삭제합니다 (사전 주석은 거부)</translation>
    </message>
    <message>
        <source>Drop the &amp;draft</source>
        <translation>작성 중인 오류 취소(&amp;D)</translation>
    </message>
    <message>
        <source>Drop the drafted error and the selection; from a field of the annotation view, back to the text</source>
        <translation>작성 중인 오류와 선택을 취소합니다. 주석 보기의 입력란에서는 텍스트로 돌아갑니다</translation>
    </message>
    <message>
        <source>&amp;Note…</source>
        <translation>메모(&amp;N)…</translation>
    </message>
    <message>
        <source>Write the note of the drafted error or the one under the cursor</source>
        <translation>작성 중인 오류나 커서 위치 오류의 메모를 씁니다</translation>
    </message>
    <message>
        <source>Output &amp;done</source>
        <translation>출력 완료(&amp;D)</translation>
    </message>
    <message>
        <source>Mark this output as annotated (no further errors; in ESA mode: save the score)</source>
        <translation>이 출력을 주석 완료로 표시합니다 (더 이상 오류 없음, ESA 모드: 점수 저장)</translation>
    </message>
    <message>
        <source>ESA &amp;score…</source>
        <translation>ESA 점수(&amp;S)…</translation>
    </message>
    <message>
        <source>Type this output&apos;s ESA score (0–100)</source>
        <translation>이 출력의 ESA 점수 입력 (0–100)</translation>
    </message>
    <message>
        <source>Next error</source>
        <translation>다음 오류</translation>
    </message>
    <message>
        <source>Select the next error in this output</source>
        <translation>이 출력의 다음 오류 선택</translation>
    </message>
    <message>
        <source>Previous error</source>
        <translation>이전 오류</translation>
    </message>
    <message>
        <source>Select the previous error in this output</source>
        <translation>이 출력의 이전 오류 선택</translation>
    </message>
    <message>
        <source>&amp;Next segment</source>
        <translation>다음 세그먼트(&amp;N)</translation>
    </message>
    <message>
        <source>Next row of the table</source>
        <translation>표의 다음 행</translation>
    </message>
    <message>
        <source>&amp;Previous segment</source>
        <translation>이전 세그먼트(&amp;P)</translation>
    </message>
    <message>
        <source>Previous row of the table</source>
        <translation>표의 이전 행</translation>
    </message>
    <message>
        <source>Next s&amp;ystem</source>
        <translation>다음 시스템(&amp;Y)</translation>
    </message>
    <message>
        <source>Annotate the next system&apos;s output</source>
        <translation>다음 시스템의 출력에 주석 달기</translation>
    </message>
    <message>
        <source>Previous sys&amp;tem</source>
        <translation>이전 시스템(&amp;T)</translation>
    </message>
    <message>
        <source>Annotate the previous system&apos;s output</source>
        <translation>이전 시스템의 출력에 주석 달기</translation>
    </message>
    <message>
        <source>Next &amp;unannotated</source>
        <translation>다음 미주석(&amp;U)</translation>
    </message>
    <message>
        <source>The next row whose output of the current system is not annotated yet</source>
        <translation>현재 시스템의 출력에 아직 주석이 없는 다음 행</translation>
    </message>
    <message>
        <source>Previous unannotated</source>
        <translation>이전 미주석</translation>
    </message>
    <message>
        <source>The previous row whose output of the current system is not annotated yet</source>
        <translation>현재 시스템의 출력에 아직 주석이 없는 이전 행</translation>
    </message>
    <message>
        <source>&amp;Go to segment…</source>
        <translation>세그먼트로 이동(&amp;G)…</translation>
    </message>
    <message>
        <source>Go to a segment by its number (Enter goes, Escape returns to the text)</source>
        <translation>번호로 세그먼트로 이동합니다 (Enter 이동, Escape로 텍스트에 복귀)</translation>
    </message>
    <message>
        <source>Annotation &amp;view</source>
        <translation>주석 보기(&amp;V)</translation>
    </message>
    <message>
        <source>A window made for annotating: the output with its source, its document&apos;s neighbouring segments, every category, severity and the score in sight</source>
        <translation>주석 작업용 창: 출력과 원문, 같은 문서의 앞뒤 세그먼트, 모든 범주·심각도·점수를 한눈에</translation>
    </message>
    <message>
        <source>Metric e&amp;vidence</source>
        <translation>지표 근거(&amp;E)</translation>
    </message>
    <message>
        <source>In the annotation view: show or hide the references with this output&apos;s matches, its scores and why (Escape hides it too)</source>
        <translation>주석 보기에서: 이 출력과 일치한 부분을 표시한 참조 번역, 점수와 그 근거를 보이거나 숨깁니다 (Escape로도 숨김)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>실행 취소(&amp;U)</translation>
    </message>
    <message>
        <source>Undo the last annotation edit</source>
        <translation>마지막 주석 편집을 취소합니다</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>다시 실행(&amp;R)</translation>
    </message>
    <message>
        <source>Redo the annotation edit undone last</source>
        <translation>마지막으로 취소한 주석 편집을 다시 실행합니다</translation>
    </message>
    <message>
        <source>Error category 1–9 (press again for its sub-categories; not in ESA mode)</source>
        <translation>오류 범주 1–9 (다시 누르면 하위 범주, ESA 모드에서는 없음)</translation>
    </message>
    <message>
        <source>  or  </source>
        <translation>  또는  </translation>
    </message>
    <message>
        <source>Annotation view: select an error by clicking its first word, then its last word (one word: one click), or by dragging (whole words are taken)</source>
        <translation>주석 보기: 오류의 첫 단어, 이어서 마지막 단어를 클릭하거나(한 단어면 한 번 클릭) 끌어서 선택합니다 (단어 단위로 선택됨)</translation>
    </message>
    <message>
        <source>Click, click  or  drag</source>
        <translation>클릭, 클릭  또는  끌기</translation>
    </message>
    <message>
        <source>Annotation view: move by words, or select word by word, as a click does</source>
        <translation>주석 보기: 클릭할 때처럼 단어 단위로 이동하거나 선택</translation>
    </message>
    <message>
        <source>Ctrl+Left / Ctrl+Right  (with Shift: select)</source>
        <translation>Ctrl+Left / Ctrl+Right  (Shift와 함께: 선택)</translation>
    </message>
    <message>
        <source>Annotation view: the ESA score by one, by ten</source>
        <translation>주석 보기: ESA 점수를 1씩, 10씩 조정</translation>
    </message>
    <message>
        <source>Arrows, Page Up / Page Down</source>
        <translation>화살표, Page Up / Page Down</translation>
    </message>
    <message>
        <source>Open a session file</source>
        <translation>세션 파일 열기</translation>
    </message>
    <message>
        <source>Save the session as…</source>
        <translation>다른 이름으로 세션 저장…</translation>
    </message>
</context>
<context>
    <name>latexexport</name>
    <message>
        <source>Cannot export the LaTeX table</source>
        <translation>LaTeX 표를 내보낼 수 없습니다</translation>
    </message>
    <message>
        <source>LaTeX files (*.tex);;All files (*)</source>
        <translation>LaTeX 파일 (*.tex);;모든 파일 (*)</translation>
    </message>
</context>
<context>
    <name>lifecycle</name>
    <message>
        <source>Ref {0}</source>
        <translation>참조 {0}</translation>
    </message>
</context>
<context>
    <name>menus</name>
    <message>
        <source>&amp;Open comparison…</source>
        <translation>비교 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Choose source, references and system outputs</source>
        <translation>원문, 참조 번역, 시스템 출력 선택</translation>
    </message>
    <message>
        <source>Open the &amp;sample</source>
        <translation>예제 열기(&amp;S)</translation>
    </message>
    <message>
        <source>The bundled German→English sample</source>
        <translation>포함된 독일어→영어 예제</translation>
    </message>
    <message>
        <source>&amp;Export CSV (all rows)…</source>
        <translation>CSV 내보내기(모든 행)(&amp;E)…</translation>
    </message>
    <message>
        <source>Per-sentence scores of every row, as matchlight score --csv writes them</source>
        <translation>모든 행의 문장별 점수 (matchlight score --csv와 같은 형식)</translation>
    </message>
    <message>
        <source>Export CSV (&amp;filtered rows)…</source>
        <translation>CSV 내보내기(필터링된 행)(&amp;F)…</translation>
    </message>
    <message>
        <source>Per-sentence scores of the rows the filter keeps</source>
        <translation>필터가 남긴 행의 문장별 점수</translation>
    </message>
    <message>
        <source>Scoring &amp;settings…</source>
        <translation>채점 설정(&amp;S)…</translation>
    </message>
    <message>
        <source>Tokenizers, smoothing, ROUGE options</source>
        <translation>토크나이저, 스무딩, ROUGE 옵션</translation>
    </message>
    <message>
        <source>&amp;Cancel scoring</source>
        <translation>채점 취소(&amp;C)</translation>
    </message>
    <message>
        <source>Stop scoring; keep the rows so far</source>
        <translation>채점을 중지하고 지금까지의 행은 유지</translation>
    </message>
    <message>
        <source>&amp;Resume scoring</source>
        <translation>채점 재개(&amp;R)</translation>
    </message>
    <message>
        <source>Score the rows left when scoring was cancelled</source>
        <translation>채점을 취소했을 때 남은 행을 채점합니다</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>찾기(&amp;F)…</translation>
    </message>
    <message>
        <source>Search the texts</source>
        <translation>텍스트 검색</translation>
    </message>
    <message>
        <source>&amp;Copy row</source>
        <translation>행 복사(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the current row, every column, tab-separated with a header line</source>
        <translation>현재 행의 모든 열을 헤더 줄과 함께 탭으로 구분해 복사</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>확대(&amp;I)</translation>
    </message>
    <message>
        <source>Larger text in the table and pane</source>
        <translation>표와 창의 글자를 크게</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>축소(&amp;O)</translation>
    </message>
    <message>
        <source>Smaller text in the table and pane</source>
        <translation>표와 창의 글자를 작게</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>실제 크기(&amp;A)</translation>
    </message>
    <message>
        <source>The application&apos;s text size</source>
        <translation>애플리케이션 기본 글자 크기</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>단축키(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Matchlight</source>
        <translation>Matchlight 정보(&amp;A)</translation>
    </message>
    <message>
        <source>The new interface language is used when Matchlight starts again.</source>
        <translation>새 인터페이스 언어는 Matchlight를 다시 시작하면 적용됩니다.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>편집(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Highlight</source>
        <translation>강조 표시(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Row height</source>
        <translation>행 높이(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>테마(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Scoring</source>
        <translation>채점(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>기본</translation>
    </message>
    <message>
        <source> Highlight: </source>
        <translation> 강조 표시: </translation>
    </message>
    <message>
        <source> Baseline: </source>
        <translation> 기준 시스템: </translation>
    </message>
    <message>
        <source>The system the Δ columns compare against</source>
        <translation>Δ 열의 비교 기준이 되는 시스템</translation>
    </message>
    <message>
        <source>  Reference matches of: </source>
        <translation>  참조 번역 일치 표시 대상: </translation>
    </message>
    <message>
        <source>Whose matches the reference cells show: any system, or one system</source>
        <translation>참조 번역 셀에 표시할 일치: 모든 시스템 또는 한 시스템</translation>
    </message>
    <message>
        <source>any system</source>
        <translation>모든 시스템</translation>
    </message>
</context>
<context>
    <name>model</name>
    <message>
        <source>no score</source>
        <translation>점수 없음</translation>
    </message>
</context>
<context>
    <name>opendialog</name>
    <message>
        <source>documentation or checksums</source>
        <translation>문서 또는 체크섬</translation>
    </message>
    <message>
        <source>per-line metadata, not a text to score</source>
        <translation>줄별 메타데이터 (채점할 텍스트 아님)</translation>
    </message>
    <message>
        <source>a folder inside the dropped folder</source>
        <translation>끌어다 놓은 폴더 안의 폴더</translation>
    </message>
    <message>
        <source>a hidden file</source>
        <translation>숨김 파일</translation>
    </message>
    <message>
        <source>a second source file</source>
        <translation>두 번째 원문 파일</translation>
    </message>
    <message>
        <source>not named src*, ref* or sys.*/hyp.*/out.* like the other files</source>
        <translation>다른 파일처럼 src*, ref*, sys.*/hyp.*/out.* 이름이 아님</translation>
    </message>
    <message>
        <source>Left out ({reason}): {0}</source>
        <translation>제외됨 ({reason}): {0}</translation>
    </message>
</context>
<context>
    <name>palette</name>
    <message>
        <source>in the longest common subsequence</source>
        <translation>최장 공통 부분 수열에 포함</translation>
    </message>
    <message>
        <source>unmatched</source>
        <translation>일치하지 않음</translation>
    </message>
    <message>
        <source>missed by all systems</source>
        <translation>모든 시스템이 놓침</translation>
    </message>
    <message>
        <source>this system</source>
        <translation>이 시스템</translation>
    </message>
    <message>
        <source>the baseline</source>
        <translation>기준 시스템</translation>
    </message>
    <message>
        <source>matched by {system}, not by {baseline}</source>
        <translation>{system}은(는) 일치, {baseline}은(는) 불일치</translation>
    </message>
    <message>
        <source>matched by {baseline}, not by {system}</source>
        <translation>{baseline}은(는) 일치, {system}은(는) 불일치</translation>
    </message>
    <message>
        <source>substituted</source>
        <translation>대체됨</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>삭제됨</translation>
    </message>
    <message>
        <source>to insert (reference words the output lacks)</source>
        <translation>삽입 필요 (출력에 없는 참조 번역 단어)</translation>
    </message>
    <message>
        <source>‸ where words are missing</source>
        <translation>‸ 단어가 빠진 위치</translation>
    </message>
    <message>
        <source>shifted phrase</source>
        <translation>이동된 구</translation>
    </message>
    <message>
        <source>▼ where it moves to</source>
        <translation>▼ 이동할 위치</translation>
    </message>
    <message>
        <source>TER edits against the reference with the fewest edits: substituted words are tinted and dotted, deleted words struck through, reference words the output lacks tinted green (a caret marks where they belong in the output), shifted phrases carry a bracket and a triangle marks where each moves to. Hover a mark for the details; matched words are plain.</source>
        <translation>편집이 가장 적은 참조 번역에 대한 TER 편집: 대체된 단어는 색을 입히고 점선 밑줄을, 삭제된 단어는 취소선을 긋고, 출력에 없는 참조 번역 단어는 초록색으로 표시합니다(출력에서 들어갈 자리는 캐럿으로 표시). 이동된 구에는 괄호가, 이동할 위치에는 삼각형이 붙습니다. 표시에 마우스를 올리면 자세히 볼 수 있으며, 일치한 단어는 표시하지 않습니다.</translation>
    </message>
</context>
<context>
    <name>reportexport</name>
    <message>
        <source>Cannot export the report</source>
        <translation>보고서를 내보낼 수 없습니다</translation>
    </message>
    <message>
        <source>HTML pages (*.html *.htm);;All files (*)</source>
        <translation>HTML 페이지 (*.html *.htm);;모든 파일 (*)</translation>
    </message>
</context>
<context>
    <name>reviewbox</name>
    <message>
        <source>this output</source>
        <translation>이 출력</translation>
    </message>
    <message>
        <source>this segment (every system)</source>
        <translation>이 세그먼트(모든 시스템)</translation>
    </message>
    <message>
        <source>this system</source>
        <translation>이 시스템</translation>
    </message>
    <message>
        <source>everywhere</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>Which undecided errors the buttons rule on</source>
        <translation>버튼이 결정할 미결정 오류의 범위</translation>
    </message>
    <message>
        <source>Confirm all</source>
        <translation>모두 확정</translation>
    </message>
    <message>
        <source>Confirm every undecided error of the scope (one undo step); errors that still need a category or a note stay undecided</source>
        <translation>범위의 미결정 오류를 모두 확정합니다(한 번에 실행 취소 가능). 범주나 메모가 아직 필요한 오류는 미결정으로 남습니다</translation>
    </message>
    <message>
        <source>Reject all</source>
        <translation>모두 거부</translation>
    </message>
    <message>
        <source>Reject every undecided error of the scope (one undo step)</source>
        <translation>범위의 미결정 오류를 모두 거부합니다(한 번에 실행 취소 가능)</translation>
    </message>
    <message>
        <source>Undecided errors of</source>
        <translation>미결정 오류 범위:</translation>
    </message>
    <message>
        <source>{0} undecided {where}; {1} in all.</source>
        <translation>{where} 미결정 {0}개, 전체 {1}개.</translation>
    </message>
    <message>
        <source>{0} undecided errors in all.</source>
        <translation>전체 미결정 오류 {0}개.</translation>
    </message>
    <message>
        <source>Errors without a category (ESA) are kept out of MQM: {0}.</source>
        <translation>범주가 없는 오류(ESA)는 MQM에서 제외됩니다: {0}.</translation>
    </message>
</context>
<context>
    <name>scalemenu</name>
    <message>
        <source>{0}: scale</source>
        <translation>{0}: 척도</translation>
    </message>
    <message>
        <source>Higher is better</source>
        <translation>높을수록 좋음</translation>
    </message>
    <message>
        <source>Lower is better</source>
        <translation>낮을수록 좋음</translation>
    </message>
    <message>
        <source>Decimals</source>
        <translation>소수 자릿수</translation>
    </message>
    <message>
        <source>{0}&apos;s scale is its metric&apos;s</source>
        <translation>{0}의 척도는 지표를 따릅니다</translation>
    </message>
</context>
<context>
    <name>separation</name>
    <message>
        <source>no rows are selected</source>
        <translation>선택된 행이 없습니다</translation>
    </message>
</context>
<context>
    <name>sessionopen</name>
    <message>
        <source>• {0} ({1}): not at </source>
        <translation>• {0} ({1}): 다음 위치에 없음: </translation>
    </message>
    <message>
        <source>{0}: these input files are missing:
{names}

The session was not changed; put the files back (next to the session file, or where they were) and open it again.</source>
        <translation>{0}: 다음 입력 파일이 없습니다:
{names}

세션은 변경되지 않았습니다. 파일을 (세션 파일 옆이나 원래 위치에) 되돌려 놓고 다시 여세요.</translation>
    </message>
    <message>
        <source>These input files changed since the session was saved: </source>
        <translation>세션을 저장한 뒤 다음 입력 파일이 바뀌었습니다: </translation>
    </message>
    <message>
        <source>These imported files changed since the session was saved; the values saved in the session are used: </source>
        <translation>세션을 저장한 뒤 다음 가져온 파일이 바뀌었습니다. 세션에 저장된 값을 사용합니다: </translation>
    </message>
    <message>
        <source>Of the {0} errors, {1} are where they were, {2} were re-attached where their text moved, and {3} could not be found and are flagged (listed in the Annotation panel; fix or delete them).</source>
        <translation>오류 {0}개 중 {1}개는 원래 위치에 있고, {2}개는 텍스트가 옮겨진 위치에 다시 연결되었으며, {3}개는 찾을 수 없어 표시해 두었습니다 (주석 패널에 나열됨. 고치거나 삭제하세요).</translation>
    </message>
    <message>
        <source>The file is damaged; what could be read is shown: </source>
        <translation>파일이 손상되었습니다. 읽을 수 있는 내용만 표시합니다: </translation>
    </message>
    <message>
        <source>This is a read-only copy: use File ▸ Save session as… to keep working on it.</source>
        <translation>읽기 전용 사본입니다. 계속 작업하려면 파일 ▸ 다른 이름으로 세션 저장…을 사용하세요.</translation>
    </message>
    <message>
        <source>The imported column {0!r} was not restored: {exc}</source>
        <translation>가져온 열 {0!r}을(를) 복원하지 못했습니다: {exc}</translation>
    </message>
    <message>
        <source>The saved row selection could not be applied: {exc}</source>
        <translation>저장된 행 선택을 적용할 수 없습니다: {exc}</translation>
    </message>
</context>
<context>
    <name>settings</name>
    <message>
        <source>How the sentences of a segment are marked. ROUGE-Lsum scores sentence by sentence; BLEU and chrF read the marked sentences joined by spaces (the marker is never a word).</source>
        <translation>세그먼트 안의 문장을 구분하는 방법입니다. ROUGE-Lsum은 문장 단위로 채점하고, BLEU와 chrF는 구분된 문장을 공백으로 이어 읽습니다 (구분자는 단어로 취급되지 않음).</translation>
    </message>
    <message>
        <source>default</source>
        <translation>기본값</translation>
    </message>
</context>
<context>
    <name>summary</name>
    <message>
        <source>No comparison open. Its corpus scores per system show here.</source>
        <translation>열린 비교가 없습니다. 비교를 열면 시스템별 코퍼스 점수가 여기에 표시됩니다.</translation>
    </message>
    <message>
        <source>sentence separator {shown}</source>
        <translation>문장 구분자 {shown}</translation>
    </message>
    <message>
        <source>references in no clear language: outputs not checked</source>
        <translation>참조 번역의 언어가 분명하지 않아 출력을 검사하지 않음</translation>
    </message>
    <message>
        <source>than the references ({0})</source>
        <translation>참조 번역({0})과 다른 언어</translation>
    </message>
    <message>
        <source>output in another language {language}: {0}</source>
        <translation>다른 언어로 된 출력 {language}: {0}</translation>
    </message>
    <message>
        <source>no output in another language {language}</source>
        <translation>다른 언어로 된 출력 없음 {language}</translation>
    </message>
    <message>
        <source>no source file to find copies</source>
        <translation>복사를 찾을 원문 파일 없음</translation>
    </message>
    <message>
        <source>copying the source: {0}</source>
        <translation>원문 복사: {0}</translation>
    </message>
    <message>
        <source>none copying the source</source>
        <translation>원문을 복사한 출력 없음</translation>
    </message>
    <message>
        <source>Language check: </source>
        <translation>언어 검사: </translation>
    </message>
</context>
<context>
    <name>theme</name>
    <message>
        <source>Matchlight chart</source>
        <translation>Matchlight 차트</translation>
    </message>
</context>
</TS>
